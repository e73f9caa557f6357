import { createExpressApp } from '@rental/http';

/**
 * A route that only answers JSON, run as its own process so that neither autocannon nor the
 * gateway shares its event loop; it shows the gateway's own cost.
 */
const app = createExpressApp();
app.get('/readyz', (_req, res) => {
  res.json({ status: 'ready' });
});
app.get('/api/product-sectors', (_req, res) => {
  res.json([{ value: 'IT_AND_OFFICE_EQUIPMENT', label: 'IT and office equipment' }]);
});
app.listen(Number(process.env.PORT), '127.0.0.1');
