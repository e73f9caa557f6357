import express, { Application } from 'express';

/**
 * An express application as every process builds it: a path reaches a route only spelled as
 * the route is (no trailing slash, the same case), so no second spelling of a path slips past a
 * check made for the first one, and a misspelled path is a 404.
 */
export function createExpressApp(): Application {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('strict routing', true);
  app.set('case sensitive routing', true);
  return app;
}
