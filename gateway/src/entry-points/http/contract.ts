import { z } from 'zod';
import { defineOperation } from '@rental/http';

export const getApiDescription = defineOperation({
  operationId: 'getApiDescription',
  method: 'get',
  path: '/api/docs.json',
  summary: 'This API description (OpenAPI 3.1)',
  description: 'No API key needed. `info.version` is the calendar build tag of the platform; clients never send it.',
  tags: ['API description'],
  responses: {
    200: {
      description: 'The OpenAPI 3.1 document',
      schema: z.object({ openapi: z.string(), info: z.object({ title: z.string(), version: z.string() }).catchall(z.unknown()) }).catchall(z.unknown()),
    },
  },
});

export const getApiReference = defineOperation({
  operationId: 'getApiReference',
  method: 'get',
  path: '/api/docs',
  summary: 'Human-readable API reference',
  description: 'No API key needed. Renders this description with Swagger UI.',
  tags: ['API description'],
  responses: {
    200: { description: 'HTML page', contentType: 'text/html' },
  },
});

export const gatewayOperations = [getApiDescription, getApiReference];
