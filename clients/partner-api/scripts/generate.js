#!/usr/bin/env node
// Writes the API description the gateway serves to openapi.json (for Spectral and Prism) and
// generates the client's types from it, so the client can never drift from the code.
const fs = require('node:fs');
const path = require('node:path');

async function main() {
  const { apiDescription } = require('@rental/gateway');
  const { default: openapiTS, astToString } = await import('openapi-typescript');
  const root = path.resolve(__dirname, '..');
  const description = apiDescription('0.0.0-client');
  fs.writeFileSync(path.join(root, 'openapi.json'), `${JSON.stringify(description, null, 2)}\n`);
  // Only `required` decides whether a property must be present: with openapi-typescript's default
  // (defaultNonNullable) a request field that has a default would have to be sent, although the
  // server fills it in when it is missing.
  const ast = await openapiTS(description, { defaultNonNullable: false });
  fs.mkdirSync(path.join(root, 'src', 'generated'), { recursive: true });
  fs.writeFileSync(path.join(root, 'src', 'generated', 'schema.ts'), `// Generated from the gateway's API description by scripts/generate.js; do not edit.\n${astToString(ast)}`);
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
