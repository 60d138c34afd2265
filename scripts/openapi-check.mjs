// Validates the committed openapi.json with Redocly's linter and checks that the typed client
// (clients/typescript/openapi.d.ts, made by openapi-typescript) is what the document generates.
//   node scripts/openapi-check.mjs          check (CI, through test/spine/openapi.e2e-spec.ts)
//   node scripts/openapi-check.mjs --write  regenerate the client (npm run openapi:write does it)
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import openapiTS, { astToString } from 'openapi-typescript';
import prettier from 'prettier';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const documentPath = join(root, 'openapi.json');
const clientPath = join(root, 'clients/typescript/openapi.d.ts');
const write = process.argv.includes('--write');
const source = readFileSync(documentPath, 'utf8');

// Redocly's recommended rules (structure, path parameters declared, unique operationIds, security
// defined, …) plus what makes the description teach: a summary, a description and a 4xx on every
// operation, and examples that match their schemas.
const config = await createConfig({
  extends: ['recommended'],
  rules: {
    'info-license': 'off',
    'info-license-url': 'off',
    'operation-summary': 'error',
    'operation-description': 'error',
    'operation-2xx-response': 'error',
    'operation-4xx-response': 'error',
    'no-invalid-media-type-examples': { severity: 'error', allowAdditionalProperties: false },
    'no-invalid-schema-examples': 'error',
    'no-unused-components': 'error',
    'no-server-example.com': 'off',
    // The paths end with a slash because that is how the service is called (its spec writes them so).
    'no-path-trailing-slash': 'off',
  },
});
// Operations that truly answer no 4xx (a 4xx invented to please the linter would teach a lie),
// the SAML POST binding, whose only answer is a 303 to the Redirect binding, and a SAML connection's
// ACS, which answers a 303 to where the signed-in browser goes or an error page.
const EXEMPT = new Set([
  'operation-4xx-response #/paths/~1health~1live/get/responses',
  'operation-4xx-response #/paths/~1health~1ready/get/responses',
  'operation-4xx-response #/paths/~1developer~1auth~1logout~1/post/responses',
  'operation-4xx-response #/paths/~1saml~1metadata~1/get/responses',
  'operation-4xx-response #/paths/~1.well-known~1oauth-authorization-server/get/responses',
  'operation-4xx-response #/paths/~1oauth~1jwks/get/responses',
  'operation-2xx-response #/paths/~1saml~1sso~1/post/responses',
  'operation-2xx-response #/paths/~1auth~1sso~1{id}~1saml~1acs~1/post/responses',
]);
const problems = (await lintFromString({ source, absoluteRef: documentPath, config })).filter(
  (p) => !EXEMPT.has(`${p.ruleId} ${p.location?.[0]?.pointer ?? ''}`),
);
const errors = problems.filter((p) => p.severity === 'error');
for (const p of problems) {
  const where = p.location?.[0]?.pointer ?? '';
  console.log(`${p.severity} ${p.ruleId}: ${p.message} ${where}`);
}

const generated = astToString(await openapiTS(JSON.parse(source)));
const header =
  '// Generated from openapi.json by scripts/openapi-check.mjs (openapi-typescript). Do not edit: run `npm run openapi:write`.\n';
const options = { ...(await prettier.resolveConfig(clientPath)), filepath: clientPath };
const client = await prettier.format(header + generated, options);
let drift = false;
if (write) {
  mkdirSync(dirname(clientPath), { recursive: true });
  writeFileSync(clientPath, client);
} else {
  let committed = '';
  try {
    committed = readFileSync(clientPath, 'utf8');
  } catch {
    // missing: reported as drift below
  }
  drift = committed !== client;
  if (drift) console.log('drift: clients/typescript/openapi.d.ts is not what openapi.json generates; run `npm run openapi:write`');
}

console.log(
  `openapi-check: ${errors.length} errors, ${problems.length - errors.length} warnings, client ${write ? 'written' : drift ? 'DRIFTED' : 'up to date'}`,
);
process.exit(errors.length > 0 || drift ? 1 : 0);
