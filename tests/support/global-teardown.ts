import { Stack, shutdownStack } from '@rental/testkit';

export default async function globalTeardown(): Promise<void> {
  const stack = (globalThis as Record<string, unknown>).__rentalStack as Stack | undefined;
  if (stack) await shutdownStack(stack);
}
