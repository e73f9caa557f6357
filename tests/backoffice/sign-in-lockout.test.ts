import { randomBytes } from 'node:crypto';
import { connectDatabase } from '@rental/db';
import { SIGN_IN_LOCK_MS, SIGN_IN_MAX_FAILURES, SignInGuard, seedOperators } from '@rental/stack';
import { consoleSignIn, sharedStack } from './support/kit';

// The dev identity provider's sign-in form: repeated wrong passwords lock an e-mail for a while,
// and an unknown e-mail costs what a known one does. Over the shared stack's provider with an
// operator of this test (a lock of a fixture operator would stop the console tests).

/** The sign-in form of a fresh authorization request of the console, as the console starts one. */
async function signInForm(): Promise<{ submit(email: string, password: string): Promise<{ status: number; error: string | null }> }> {
  const form = await consoleSignIn();
  expect(form.interaction).toMatch(/^\/interaction\/[\w-]+$/);
  return {
    async submit(email, password) {
      const response = await form.submit(email, password);
      const error = /<p class="error" role="alert">([^<]*)<\/p>/.exec(await response.text())?.[1] ?? null;
      return { status: response.status, error };
    },
  };
}

const WRONG = 'E-mail or password is wrong.';
const LOCKED = `Too many failed sign-ins: try again in ${SIGN_IN_LOCK_MS / 60_000} minutes.`;

describe("the dev identity provider's sign-in", () => {
  const password = `pw-${randomBytes(12).toString('hex')}`;
  const email = `locked-${randomBytes(4).toString('hex')}@ops.example`;

  beforeAll(async () => {
    const db = connectDatabase({ url: sharedStack().databaseUrl, schema: 'identity_dev' });
    try {
      const id = `op-${randomBytes(4).toString('hex')}`;
      await seedOperators(db, [
        { id, name: 'Lock Test', email, password, roles: ['viewer'], clientId: `${id}-client`, clientSecret: randomBytes(16).toString('hex') },
      ]);
    } finally {
      await db.destroy();
    }
  });

  it('when the right password follows five wrong ones, then the account is locked and even the right password is refused', async () => {
    const form = await signInForm();
    const answers = [];
    for (let attempt = 1; attempt <= SIGN_IN_MAX_FAILURES; attempt += 1) answers.push(await form.submit(email, `wrong-${attempt}`));
    answers.push(await form.submit(email, password));
    answers.push(await form.submit(email.toUpperCase(), password));

    expect(answers).toEqual([
      ...Array.from({ length: SIGN_IN_MAX_FAILURES - 1 }, () => ({ status: 401, error: WRONG })),
      { status: 401, error: LOCKED },
      { status: 401, error: LOCKED },
      { status: 401, error: LOCKED },
    ]);
  });

  it('when the right password comes after fewer wrong ones, then it signs in (a redirect back to the console)', async () => {
    const other = `fine-${randomBytes(4).toString('hex')}@ops.example`;
    const db = connectDatabase({ url: sharedStack().databaseUrl, schema: 'identity_dev' });
    try {
      const id = `op-${randomBytes(4).toString('hex')}`;
      await seedOperators(db, [
        { id, name: 'Fine Test', email: other, password, roles: ['viewer'], clientId: `${id}-client`, clientSecret: randomBytes(16).toString('hex') },
      ]);
    } finally {
      await db.destroy();
    }
    const form = await signInForm();
    for (let attempt = 1; attempt < SIGN_IN_MAX_FAILURES; attempt += 1) expect(await form.submit(other, 'wrong')).toEqual({ status: 401, error: WRONG });
    const signedIn = await form.submit(other, password);
    expect([signedIn.status, signedIn.error]).toEqual([303, null]);
  });

  it('when an unknown e-mail is tried five times, then it is locked like a known one, so the answers tell nothing about which accounts exist', async () => {
    const form = await signInForm();
    const unknown = `nobody-${randomBytes(4).toString('hex')}@ops.example`;
    const answers = [];
    for (let attempt = 1; attempt <= SIGN_IN_MAX_FAILURES + 1; attempt += 1) answers.push(await form.submit(unknown, 'whatever'));
    expect(answers.map((answer) => answer.error)).toEqual([...Array.from({ length: SIGN_IN_MAX_FAILURES - 1 }, () => WRONG), LOCKED, LOCKED]);
  });
});

describe("the sign-in guard (the provider's password check)", () => {
  const dummyHash = 'hash-of-dummy';
  function guard(now: () => number = Date.now) {
    const checked: string[] = [];
    const signIns = new SignInGuard({
      dummyHash: Promise.resolve(dummyHash),
      verify: async (password, storedHash) => {
        checked.push(storedHash);
        return storedHash === `hash-of-${password}`;
      },
      now,
    });
    return { signIns, checked };
  }

  it("when an e-mail is unknown, then the password is still checked, against the dummy hash, as slowly as a known account's", async () => {
    const { signIns, checked } = guard();
    expect(await signIns.check('nobody@ops.example', 'secret', undefined)).toBe('wrong');
    expect(await signIns.check('vera@ops.example', 'secret', 'hash-of-secret')).toBe('signed_in');
    expect(checked).toEqual([dummyHash, 'hash-of-secret']);
  });

  it('when the dummy hash happens to match, then an unknown e-mail still does not sign in', async () => {
    const { signIns } = guard();
    expect(await signIns.check('nobody@ops.example', 'dummy', undefined)).toBe('wrong');
  });

  it('when a lock has lasted its time, then the right password signs in again; while locked no hash is computed', async () => {
    let now = 1_000_000;
    const { signIns, checked } = guard(() => now);
    for (let attempt = 1; attempt <= SIGN_IN_MAX_FAILURES; attempt += 1) await signIns.check('vera@ops.example', 'wrong', 'hash-of-secret');
    checked.length = 0;
    now += SIGN_IN_LOCK_MS - 1;
    expect(await signIns.check('Vera@ops.example', 'secret', 'hash-of-secret')).toBe('locked');
    expect([checked, signIns.minutesLocked('vera@ops.example')]).toEqual([[], 1]);
    now += 1;
    expect(await signIns.check('vera@ops.example', 'secret', 'hash-of-secret')).toBe('signed_in');
  });
});
