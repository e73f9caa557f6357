import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { TestPartner, createTestPartner } from '@rental/testkit';
import { sharedStack } from '../support/shared-stack';

// The client as a partner gets it: a tarball from `npm pack`, installed into a project that has
// never seen the monorepo, compiled with its own types and run against the API.

const run = promisify(execFile);
const packageDirectory = path.resolve(__dirname, '..', '..', 'clients', 'partner-api', 'dist', 'package');

/** npm as a partner runs it: no workspace, no settings inherited from the npm that started jest. */
function npm(args: string[], cwd: string) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
  return run('npm', args, { cwd, env, maxBuffer: 16 * 1024 * 1024 });
}

let scratch: string;
let project: string;
let partner: TestPartner;
let packed: { filename: string; version: string; files: { path: string }[] }[];

beforeAll(async () => {
  scratch = mkdtempSync(path.join(tmpdir(), 'partner-project-'));
  project = path.join(scratch, 'project');
  mkdirSync(project);
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'partner-project', version: '1.0.0', private: true }));
  partner = await createTestPartner(sharedStack(), { like: 'acme' });
  packed = JSON.parse((await npm(['pack', packageDirectory, '--pack-destination', scratch, '--json'], scratch)).stdout);
  await npm(['install', path.join(scratch, packed[0]?.filename as string), '--prefer-offline', '--no-audit', '--no-fund'], project);
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const PROGRAM = `import { createPartnerApiClient, type components } from '@rental/partner-api-client';

type Offer = components['schemas']['Offer'];
declare const process: { env: Record<string, string | undefined>; stdout: { write(text: string): void } };

async function main(): Promise<void> {
  const api = createPartnerApiClient(process.env.API_URL as string, process.env.API_KEY as string);
  const { data, response } = await api.POST('/api/calculate', {
    body: { durations: [36], calculationTypes: ['leasing'], acquisitionCost: 1000, productSector: 'IT_AND_OFFICE_EQUIPMENT' },
  });
  const offers: Offer[] = data?.response.offers ?? [];
  process.stdout.write(JSON.stringify({ status: response.status, offers }));
}

void main();
`;

function compile(file: string): string[] {
  const program = ts.createProgram([file], {
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    module: ts.ModuleKind.Node16,
    moduleResolution: ts.ModuleResolutionKind.Node16,
    strict: true,
    types: [],
    outDir: path.dirname(file),
  });
  const { diagnostics } = program.emit();
  return [...ts.getPreEmitDiagnostics(program), ...diagnostics].map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
}

describe('the client package a partner installs', () => {
  it('when it is packed, installed offline outside the repository and a program is compiled against it, then the program type-checks and calculates through the API', async () => {
    const description = JSON.parse(readFileSync(path.join(packageDirectory, 'openapi.json'), 'utf8')) as { info: { version: string } };
    const [, year, month, day, build] = /^(\d{4})\.(\d{2})\.(\d{2})(?:\.(\d+))?$/.exec(description.info.version) ?? [];
    expect(packed.map(({ filename, version, files }) => ({ filename, version, files: files.map((file) => file.path).sort() }))).toEqual([
      {
        filename: `rental-partner-api-client-${packed[0]?.version}.tgz`,
        version: `${Number(year)}.${Number(`${month}${day}`)}.${Number(build ?? 0)}`,
        files: ['README.md', 'generated/schema.d.ts', 'generated/schema.js', 'index.d.ts', 'index.js', 'openapi.json', 'package.json'],
      },
    ]);

    const installed = JSON.parse(readFileSync(path.join(project, 'node_modules', '@rental', 'partner-api-client', 'package.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect([installed.dependencies, installed.devDependencies, installed.apiVersion]).toEqual([
      { 'openapi-fetch': '^0.17.0' },
      undefined,
      description.info.version,
    ]);
    expect(readdirSync(path.join(project, 'node_modules', '@rental'))).toEqual(['partner-api-client']);

    writeFileSync(path.join(project, 'main.ts'), PROGRAM);
    expect(compile(path.join(project, 'main.ts'))).toEqual([]);

    const { stdout } = await run(process.execPath, [path.join(project, 'main.js')], {
      cwd: project,
      env: { API_URL: sharedStack().gatewayUrl, API_KEY: partner.key },
    });
    expect(JSON.parse(stdout)).toEqual({
      status: 201,
      offers: [{ duration: 36, calculationType: 'leasing', rate: 34.3, rentalFactor: '3.180', commission: 0, residualValue: null, paymentInterval: 'monthly' }],
    });
  });

  it('when a program sends a body the description forbids, then it does not compile against the installed types', () => {
    writeFileSync(
      path.join(project, 'wrong.ts'),
      `import { createPartnerApiClient } from '@rental/partner-api-client';
void createPartnerApiClient('http://localhost', 'key').POST('/api/calculate', { body: { durations: ['36'], calculationTypes: ['leasing'], acquisitionCost: 1000, productSector: 'IT_AND_OFFICE_EQUIPMENT' } });
`,
    );
    expect(compile(path.join(project, 'wrong.ts'))).toEqual(["Type 'string' is not assignable to type 'number'."]);
  });
});
