import { ConfigurationError, parseConfig, booleanVariable, durationVariable, formatDuration, portVariable } from './load-config';
import { platformVariables } from './platform';
import { defaultAdminPort, grpcAddressOf, httpUrlOf } from './service-directory';

describe('parseConfig', () => {
  it('when nothing is set, then the platform defaults apply', () => {
    expect(parseConfig(platformVariables, {})).toMatchObject({
      API_ENVIRONMENT: 'sandbox',
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/rental',
      NATS_URL: 'nats://127.0.0.1:4222',
      SERVICE_PORT_BASE: 7100,
    });
  });

  it('when values are wrong, then one line names every offending variable', () => {
    expect(() => parseConfig(platformVariables, { API_ENVIRONMENT: 'staging', DATABASE_URL: 'mysql://x', SERVICE_PORT_BASE: 'abc' })).toThrow(
      new ConfigurationError(
        'invalid configuration: API_ENVIRONMENT must be sandbox or production; DATABASE_URL must be a URL with scheme postgres or postgresql; SERVICE_PORT_BASE must be a port number',
      ),
    );
  });

  it('when a required variable is missing, then it is reported as required', () => {
    expect(() => parseConfig({ PORT: portVariable() }, {})).toThrow('invalid configuration: PORT is required');
  });

  it('when a boolean variable is not true or false, then it is refused', () => {
    expect(parseConfig({ FLAG: booleanVariable(false) }, { FLAG: '1' })).toEqual({ FLAG: true });
    expect(() => parseConfig({ FLAG: booleanVariable(false) }, { FLAG: 'yes' })).toThrow('FLAG must be true or false');
  });

  it('when a duration has a unit s, m, h or d, then it is read as milliseconds; anything else is refused', () => {
    expect(parseConfig({ A: durationVariable('30s'), B: durationVariable('3d') }, { B: '15m' })).toEqual({ A: 30_000, B: 900_000 });
    expect(parseConfig({ T: durationVariable('1s') }, { T: '12h' })).toEqual({ T: 43_200_000 });
    expect(parseConfig({ T: durationVariable('1s') }, { T: '0s' })).toEqual({ T: 0 });
    for (const wrong of ['14', '1.5h', '2w', '-3d', 'd']) {
      expect(() => parseConfig({ T: durationVariable('1s') }, { T: wrong })).toThrow(
        new ConfigurationError('invalid configuration: T must be a duration such as 30s, 15m, 12h or 14d'),
      );
    }
  });
});

describe('service directory', () => {
  it('when no address is given, then ports derive from the base; an explicit address wins', () => {
    expect(httpUrlOf('case-workflow', 7100, {})).toBe('http://127.0.0.1:7103');
    expect(grpcAddressOf('case-workflow', 7100, {})).toBe('127.0.0.1:7113');
    expect(grpcAddressOf('case-workflow', 7100, { CASE_WORKFLOW_GRPC_ADDR: 'case-workflow:50051' })).toBe('case-workflow:50051');
  });

  it('when a peer address is given, then it must be a URL (HTTP) or host:port (gRPC); a wrong one is named', () => {
    const good = {
      PRICING_HTTP_URL: 'http://pricing:8080',
      CASE_WORKFLOW_GRPC_ADDR: 'case-workflow:50051',
      DOCUMENTS_GRPC_ADDR: '[::1]:7114',
      BACKOFFICE_GRPC_ADDR: 'dns:///backoffice.rental.svc:50051',
    };
    expect(parseConfig(platformVariables, good)).toMatchObject(good);
    expect(() =>
      parseConfig(platformVariables, {
        PRICING_HTTP_URL: 'pricing:8080',
        CART_CHECKOUT_GRPC_ADDR: 'http://cart-checkout:50051',
        DOCUMENTS_GRPC_ADDR: 'documents',
        NOTIFICATIONS_GRPC_ADDR: 'notifications:70000',
      }),
    ).toThrow(
      new ConfigurationError(
        'invalid configuration: PRICING_HTTP_URL must be a URL with scheme http or https; CART_CHECKOUT_GRPC_ADDR must be host:port; DOCUMENTS_GRPC_ADDR must be host:port; NOTIFICATIONS_GRPC_ADDR must be host:port',
      ),
    );
  });

  it('when no ADMIN_PORT is given, then the gateway takes base + 40 and each service base + 40 + its offset', () => {
    expect([defaultAdminPort('gateway', 7100), defaultAdminPort('pricing', 7100), defaultAdminPort('notifications', 7100)]).toEqual([7140, 7141, 7145]);
  });

  it('when a duration is written back, then it takes its largest whole unit', () => {
    expect([formatDuration(1_296_000_000), formatDuration(129_600_000), formatDuration(90_000), formatDuration(0)]).toEqual(['15d', '36h', '90s', '0s']);
  });
});
