import http from 'node:http';

/**
 * Reference only: the leanest possible proxy (node:http, keep-alive, no auth), to show how close
 * the gateway gets to the floor on this machine.
 */
const target = new URL(process.env.TARGET_URL ?? '');
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
http
  .createServer((req, res) => {
    if (req.url === '/readyz') {
      res.end('{"status":"ready"}');
      return;
    }
    const upstream = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, agent, headers: req.headers }, (response) => {
      res.writeHead(response.statusCode ?? 502, response.headers);
      response.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  })
  .listen(Number(process.env.PORT), '127.0.0.1');
