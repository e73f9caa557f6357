import fs from 'node:fs';
import path from 'node:path';
import { SERVICE_NAMES, type ServiceName, schemaOf } from '@rental/config';
import type { OperationSpec } from '@rental/http';
import { backofficeVariables } from '@rental/backoffice';
import { operations as backofficeOperations } from '@rental/backoffice/contract';
import { cartCheckoutVariables } from '@rental/cart-checkout';
import { operations as cartCheckoutOperations } from '@rental/cart-checkout/contract';
import { caseWorkflowVariables } from '@rental/case-workflow';
import { operations as caseWorkflowOperations } from '@rental/case-workflow/contract';
import { documentsVariables } from '@rental/documents';
import { operations as documentsOperations } from '@rental/documents/contract';
import { notificationsVariables } from '@rental/notifications';
import { operations as notificationsOperations } from '@rental/notifications/contract';
import { gatewayVariables } from '@rental/gateway';
import { pricingVariables } from '@rental/pricing';
import { operations as pricingOperations } from '@rental/pricing/contract';
import { serviceVariables } from '@rental/service-host';

// Each service README lists its operations, RPCs, variables and migrations; these lists are
// compared with the code at test time (the contract's operations, the rpcs of its proto, its
// config schema and its migration files), so a README can neither miss nor invent one.

const repo = path.resolve(__dirname, '..', '..');

interface Service {
  name: ServiceName;
  operations: readonly OperationSpec[];
  variables: Record<string, unknown>;
}

const SERVICES: Service[] = [
  { name: 'pricing', operations: pricingOperations, variables: pricingVariables },
  { name: 'cart-checkout', operations: cartCheckoutOperations, variables: cartCheckoutVariables },
  { name: 'case-workflow', operations: caseWorkflowOperations, variables: caseWorkflowVariables },
  { name: 'documents', operations: documentsOperations, variables: documentsVariables },
  { name: 'notifications', operations: notificationsOperations, variables: notificationsVariables },
  { name: 'backoffice', operations: backofficeOperations, variables: backofficeVariables },
];

const readme = (service: Service) => fs.readFileSync(path.join(repo, 'services', service.name, 'README.md'), 'utf8');

/** The text of the `## ` sections whose title starts with one of `titles`. */
function sections(text: string, ...titles: string[]): string {
  return text
    .split(/^(?=## )/m)
    .filter((section) => titles.some((title) => section.startsWith(`## ${title}`)))
    .join('\n');
}

/** The first cells of a section's table rows. */
function firstCells(section: string): string[] {
  return [...section.matchAll(/^\| *([^|\n]*?) *\|/gm)].map((match) => match[1] as string);
}

const sorted = (values: Iterable<string>) => [...new Set(values)].sort();

/** What a README list misses of the code's, and what it names that the code does not have. */
function gaps(listed: Iterable<string>, inCode: Iterable<string>): { unlisted: string[]; unknown: string[] } {
  const readme = new Set(listed);
  const code = new Set(inCode);
  return { unlisted: sorted([...code].filter((name) => !readme.has(name))), unknown: sorted([...readme].filter((name) => !code.has(name))) };
}

const NO_GAPS = { unlisted: [], unknown: [] };

/** The rpcs of the proto package named after the service, if it serves one. */
function rpcsOf(name: ServiceName): string[] {
  const file = path.join(repo, 'proto', 'rental', schemaOf(name), 'v1', `${schemaOf(name)}.proto`);
  return fs.existsSync(file) ? [...fs.readFileSync(file, 'utf8').matchAll(/^\s*rpc (\w+)\s*\(/gm)].map((match) => match[1] as string) : [];
}

// Addresses of other services are read from the environment by name (@rental/config's service
// directory), and TMPDIR by node itself: not part of a schema, still variables.
const readOutsideSchema = (name: string) => /_(GRPC_ADDR|HTTP_URL)$/.test(name) || name === 'TMPDIR';

/**
 * What the Variables section of a README misses of the process's own variables (its schema
 * beyond the shared service variables), and the variables it names that the process does not read.
 */
function variableGaps(text: string, variables: Record<string, unknown>): { unlisted: string[]; unknown: string[] } {
  const named = sorted([...sections(text, 'Variables').matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((match) => match[1] as string));
  return {
    unlisted: sorted(Object.keys(variables).filter((name) => !(name in serviceVariables) && !named.includes(name))),
    unknown: named.filter((name) => !(name in variables) && !readOutsideSchema(name)),
  };
}

describe.each(SERVICES)('the README of $name', (service) => {
  const text = readme(service);

  it('when its operations table is read, then it lists exactly the operations of the contract, as METHOD /path', () => {
    const listed = firstCells(sections(text, 'Public operations', 'Operations'))
      .map((cell) => /^`(GET|POST|PUT|PATCH|DELETE) ([^`?\s]+)/.exec(cell))
      .filter((match): match is RegExpExecArray => match !== null)
      .map((match) => `${match[1]} ${match[2]}`);

    expect(
      gaps(
        listed,
        service.operations.map((operation) => `${operation.method.toUpperCase()} ${operation.path}`),
      ),
    ).toEqual(NO_GAPS);
  });

  it('when its gRPC table is read, then it lists exactly the rpcs of its proto (none when it serves none)', () => {
    const listed = firstCells(sections(text, 'Internal gRPC'))
      .map((cell) => /^`(\w+)`$/.exec(cell)?.[1])
      .filter((name): name is string => name !== undefined);

    expect(gaps(listed, rpcsOf(service.name))).toEqual(NO_GAPS);
  });

  it('when its variables are read, then every variable of its own config schema is in the table, and every variable it names is one the process reads', () => {
    expect(variableGaps(text, service.variables)).toEqual(NO_GAPS);
  });

  it('when its layout names the migrations, then it names exactly the migration files', () => {
    const files = fs
      .readdirSync(path.join(repo, 'services', service.name, 'src', 'migrations'))
      .filter((file) => /^\d{4}_\w+\.ts$/.test(file))
      .map((file) => file.replace(/\.ts$/, ''));
    const layout = /^ {2}migrations\/ {2,}([\s\S]*?)(?=\n {2}\S|\n```)/m.exec(text)?.[1] ?? '';

    expect(gaps(layout.match(/\b\d{4}_\w+/g) ?? [], files)).toEqual(NO_GAPS);
  });
});

describe('the README of the gateway', () => {
  it("when its variables are read, then it names every variable of the gateway's own schema, and only variables the gateway reads", () => {
    expect(variableGaps(fs.readFileSync(path.join(repo, 'gateway', 'README.md'), 'utf8'), gatewayVariables)).toEqual(NO_GAPS);
  });
});

describe('docs/operations.md', () => {
  it('when its table of processes is read, then it names the gateway and every service, once each', () => {
    const runbook = fs.readFileSync(path.join(repo, 'docs', 'operations.md'), 'utf8');
    const processes = firstCells(sections(runbook, 'Processes and their state')).filter((cell) => !['process', '---'].includes(cell));

    expect(processes).toEqual(['gateway', ...SERVICE_NAMES]);
  });
});
