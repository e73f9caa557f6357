import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { CENSORED, censorNestedSecrets } from './censor';

const builtLogger = path.join(__dirname, '..', 'dist', 'index.js');

/** The lines a real process writes with the built logger (as the services load it) for `script`. */
function linesLoggedBy(script: string): Record<string, unknown>[] {
  const output = execFileSync(process.execPath, ['-e', `const log = require(${JSON.stringify(builtLogger)}).createLogger('censor-test');\n${script}`], {
    encoding: 'utf8',
  });
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('secrets in log lines', () => {
  it('when a line names a secret at the top, one level down or in headers, then each is censored and the rest is kept', () => {
    const [line] = linesLoggedBy(`log.info({
      apiKey: 'sbx_top', key: 'k1', secret: 's1', password: 'p1', secretKey: 'sk1', accessKey: 'ak1',
      endpoint: { url: 'https://partner.example/hooks', secret: 'whsec_nested' },
      headers: { 'x-api-key': 'sbx_header', authorization: 'Bearer t1', accept: 'application/json' },
      req: { method: 'GET', headers: { authorization: 'Bearer t2', 'x-api-key': 'sbx_nested_header', host: 'api.example' } },
      partnerId: 'acme',
    }, 'with secrets'); process.exit(0);`);

    expect(line).toMatchObject({
      msg: 'with secrets',
      apiKey: CENSORED,
      key: CENSORED,
      secret: CENSORED,
      password: CENSORED,
      secretKey: CENSORED,
      accessKey: CENSORED,
      endpoint: { url: 'https://partner.example/hooks', secret: CENSORED },
      headers: { 'x-api-key': CENSORED, authorization: CENSORED, accept: 'application/json' },
      req: { method: 'GET', headers: { authorization: CENSORED, 'x-api-key': CENSORED, host: 'api.example' } },
      partnerId: 'acme',
    });
    expect(JSON.stringify(line)).not.toMatch(/sbx_|whsec_|Bearer|k1|s1|p1|sk1|ak1/);
  });

  it('when a child logger is bound to a secret, then its lines carry it censored', () => {
    const [line] = linesLoggedBy("log.child({ apiKey: 'sbx_bound', consumer: 'c' }).info('bound'); process.exit(0);");

    expect(line).toMatchObject({ msg: 'bound', apiKey: CENSORED, consumer: 'c' });
  });

  it('when an object holds a secret, then the censored line is a copy and the caller keeps its object unchanged', () => {
    const logged = { partnerId: 'acme', endpoint: { secret: 'whsec_1' }, req: { headers: { authorization: 'Bearer t', host: 'h' } } };

    const censored = censorNestedSecrets(logged);

    expect(censored).toEqual({ partnerId: 'acme', endpoint: { secret: CENSORED }, req: { headers: { authorization: CENSORED, host: 'h' } } });
    expect(logged).toEqual({ partnerId: 'acme', endpoint: { secret: 'whsec_1' }, req: { headers: { authorization: 'Bearer t', host: 'h' } } });
  });

  it('when an object holds no secret, then it is logged as it is, not copied', () => {
    const logged = { requestId: 'r1', route: '/api/carts', status: 201, nested: { count: 2 } };

    expect(censorNestedSecrets(logged)).toBe(logged);
  });
});
