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
  const ast = await openapiTS(description);
  fs.mkdirSync(path.join(root, 'src', 'generated'), { recursive: true });
  fs.writeFileSync(path.join(root, 'src', 'generated', 'schema.ts'), `// Generated from the gateway's API description by scripts/generate.js; do not edit.\n${astToString(ast)}`);
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
