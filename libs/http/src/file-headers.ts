import { z } from 'zod';
import type { HeaderSpec } from './operation';

/** The headers every file answer states: its size, and how the client is to take it (`disposition`: attachment or inline, with the name). */
export function fileHeaders(disposition: string): Record<string, HeaderSpec> {
  return {
    'Content-Length': { description: 'Size of the file in bytes', schema: z.string(), required: true },
    'Content-Disposition': { description: disposition, schema: z.string(), required: true },
  };
}
