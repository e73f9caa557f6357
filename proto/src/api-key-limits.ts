/**
 * The limits PARTNER-PORTAL.md section 3 sets on a partner's API keys: the gateway enforces them,
 * the portal and the back office describe and pre-check them, so they are written once here.
 */
export const API_KEY_LIMITS = {
  /** Keys per partner and environment that are neither expired nor revoked: the 11th is 422. */
  maxLiveKeys: 10,
  /** The longest a new key may live. */
  maxLifetimeDays: 366,
  /** The longest an old key keeps working after a roll. */
  maxRollOverlapSeconds: 604_800,
  /** The overlap of a roll that names none. */
  defaultRollOverlapSeconds: 86_400,
} as const;
