#!/usr/bin/env node
// Every repository in src/ has its repository test beside it: x.repository.ts → x.repo-spec.ts
// (docs/architecture.md, "Data access"), and every repository with a method scoped by a workspace
// (a `workspaceId: string` parameter) keeps the tenant contract in it (`itKeepsTheTenantContract`),
// unless listed below with the reason. Part of `npm run lint:layers`; exit 1 on a finding.
const { existsSync, readFileSync, readdirSync, statSync } = require('node:fs');
const { join, relative } = require('node:path');

const root = join(__dirname, '..');

function* repositories(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* repositories(path);
    else if (name.endsWith('.repository.ts')) yield path;
  }
}

/** Workspace-scoped repositories without the tenant contract, and why it does not apply to them. */
const NOT_READ_BY_WORKSPACE = {
  'src/email-verification/codes.repository.ts':
    'codes are read by the ids of accounts the caller found first (the public verify endpoints know an email, not a workspace)',
  'src/saml/sso/seen-requests.repository.ts': 'a replay claim per SP and request ID: written once, never read back',
  'src/sessions/tokens/token-denylist.repository.ts':
    'keyed by the token id (jti), which is unique across workspaces; nothing is read per workspace',
  'src/workspaces/workspaces.repository.ts': 'the workspace itself, the tenant; who may act on it is the membership repository’s contract',
};

const all = [...repositories(join(root, 'src'))];
const rel = (path) => relative(root, path).split('\\').join('/');
const missing = all.filter((path) => !existsSync(path.replace(/\.repository\.ts$/, '.repo-spec.ts')));
if (missing.length > 0) {
  console.error('Repositories without their repository test (add x.repo-spec.ts beside x.repository.ts):');
  for (const path of missing) console.error(`  ${relative(root, path).split('\\').join('/')}`);
  process.exit(1);
}
const scoped = all.filter((path) => /workspaceId\??: string/.test(readFileSync(path, 'utf8')));
const withoutContract = scoped.filter(
  (path) =>
    !(rel(path) in NOT_READ_BY_WORKSPACE) &&
    !readFileSync(path.replace(/\.repository\.ts$/, '.repo-spec.ts'), 'utf8').includes('itKeepsTheTenantContract('),
);
if (withoutContract.length > 0) {
  console.error(
    'Workspace-scoped repositories whose repo-spec does not keep the tenant contract (itKeepsTheTenantContract, test/support/repository.ts):',
  );
  for (const path of withoutContract) console.error(`  ${rel(path)}`);
  process.exit(1);
}
console.log(
  `every repository has its repo-spec (${all.length}); the ${scoped.length - Object.keys(NOT_READ_BY_WORKSPACE).length} scoped by workspace keep the tenant contract`,
);
