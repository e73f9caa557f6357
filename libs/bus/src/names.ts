/**
 * Stream and subject names carry the environment and the database name, so two stacks that
 * share one NATS server never see each other's messages.
 */
export function busNames(environment: string, databaseName: string): { stream: string; prefix: string } {
  const token = `${environment}_${databaseName}`.toLowerCase().replace(/[^a-z0-9_-]/g, '_');
  return { stream: `RENTAL_${token.toUpperCase()}`, prefix: `rental.${token}` };
}
