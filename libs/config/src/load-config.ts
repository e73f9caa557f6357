import { z } from 'zod';

export class ConfigurationError extends Error {}

/**
 * Parses environment variables with a zod shape. A missing or wrong value is reported as one
 * line naming every offending variable, so an operator sees at once what to fix.
 */
export function parseConfig<Shape extends z.ZodRawShape>(shape: Shape, env: NodeJS.ProcessEnv = process.env): z.infer<z.ZodObject<Shape>> {
  const result = z.object(shape).safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const variable = issue.path.join('.');
    const reason = issue.code === 'invalid_type' && env[variable] === undefined ? 'is required' : issue.message;
    return `${variable} ${reason}`;
  });
  throw new ConfigurationError(`invalid configuration: ${problems.join('; ')}`);
}

/** parseConfig for a process entry point: prints the one line and exits instead of throwing. */
export function loadConfig<Shape extends z.ZodRawShape>(shape: Shape, env: NodeJS.ProcessEnv = process.env): z.infer<z.ZodObject<Shape>> {
  try {
    return parseConfig(shape, env);
  } catch (error) {
    if (error instanceof ConfigurationError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
}

/** An environment variable holding a boolean written as true/false (or 1/0). */
export function booleanVariable(defaultValue: boolean) {
  return z
    .enum(['true', 'false', '1', '0'], { message: 'must be true or false' })
    .default(defaultValue ? 'true' : 'false')
    .transform((value) => value === 'true' || value === '1');
}

export function portVariable(defaultValue?: number) {
  const port = z.coerce
    .number({ message: 'must be a port number' })
    .int('must be a port number')
    .min(0, 'must be a port number')
    .max(65535, 'must be a port number');
  return defaultValue === undefined ? port : port.default(defaultValue);
}

export function urlVariable(protocols: string[], defaultValue?: string) {
  const url = z.string().refine(
    (value) => {
      try {
        return protocols.includes(new URL(value).protocol.replace(/:$/, ''));
      } catch {
        return false;
      }
    },
    `must be a URL with scheme ${protocols.join(' or ')}`,
  );
  return defaultValue === undefined ? url : url.default(defaultValue);
}

export function positiveIntegerVariable(defaultValue: number) {
  return z.coerce
    .number({ message: 'must be a positive integer' })
    .int('must be a positive integer')
    .positive('must be a positive integer')
    .default(defaultValue);
}

const DURATION = /^([0-9]{1,9})(s|m|h|d)$/;
const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** Milliseconds of a duration written as an integer with a unit (`30s`, `15m`, `12h`, `14d`); undefined when it is not one. */
export function parseDuration(value: string): number | undefined {
  const match = DURATION.exec(value.trim());
  if (!match) return undefined;
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}

/** A duration in milliseconds written in its largest whole unit (`15d`, `36h`, `90s`); a rest below a second is dropped. */
export function formatDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  for (const [unit, size] of [
    ['d', 86_400],
    ['h', 3_600],
    ['m', 60],
  ] as const) {
    if (seconds > 0 && seconds % size === 0) return `${seconds / size}${unit}`;
  }
  return `${seconds}s`;
}

/** An environment variable holding a duration (`30s`, `15m`, `12h`, `14d`), read as milliseconds. */
export function durationVariable(defaultValue: string) {
  return z
    .string()
    .default(defaultValue)
    .transform((value, context) => {
      const ms = parseDuration(value);
      if (ms === undefined) {
        context.addIssue({ code: 'custom', message: 'must be a duration such as 30s, 15m, 12h or 14d' });
        return z.NEVER;
      }
      return ms;
    });
}
