#!/usr/bin/env node
// Writes the back office's API description (the one /ops/v1/docs.json serves) to openapi.json,
// so CI lints it with Spectral like the partner API's.
const fs = require('node:fs');
const path = require('node:path');
const { backofficeApiDescription } = require('../dist/entry-points/http/api-description');

fs.writeFileSync(path.resolve(__dirname, '..', 'openapi.json'), `${JSON.stringify(backofficeApiDescription('0.0.0-lint'), null, 2)}\n`);
