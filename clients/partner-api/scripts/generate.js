#!/usr/bin/env node
// Writes the API description the gateway serves to openapi.json (for Spectral and Prism) and
// generates the client's types from it, so the client can never drift from the code.
const fs = require('node:fs');
const path = require('node:path');

async function main() {
  const { apiDescription, buildTag } = require('@rental/gateway');
  const { default: openapiTS, astToString } = await import('openapi-typescript');
  const root = path.resolve(__dirname, '..');
  // The version the gateway built from the same sources serves, so the client's version (derived
  // from it in scripts/package.js) names the API it was generated from.
  const description = apiDescription(buildTag(process.env.API_BUILD_TAG));
  fs.writeFileSync(path.join(root, 'openapi.json'), `${JSON.stringify(description, null, 2)}\n`);
  const ast = await openapiTS(description);
  fs.mkdirSync(path.join(root, 'src', 'generated'), { recursive: true });
  fs.writeFileSync(
    path.join(root, 'src', 'generated', 'schema.ts'),
    `// Generated from the gateway's API description by scripts/generate.js; do not edit.\n${astToString(ast)}`,
  );
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
