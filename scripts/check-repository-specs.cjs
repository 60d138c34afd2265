#!/usr/bin/env node
// Every repository in src/ has its repository test beside it: x.repository.ts → x.repo-spec.ts
// (docs/architecture.md, "Data access"). Part of `npm run lint:layers`; exit 1 on a finding.
const { existsSync, readdirSync, statSync } = require('node:fs');
const { join, relative } = require('node:path');

const root = join(__dirname, '..');

function* repositories(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* repositories(path);
    else if (name.endsWith('.repository.ts')) yield path;
  }
}

const all = [...repositories(join(root, 'src'))];
const missing = all.filter((path) => !existsSync(path.replace(/\.repository\.ts$/, '.repo-spec.ts')));
if (missing.length > 0) {
  console.error('Repositories without their repository test (add x.repo-spec.ts beside x.repository.ts):');
  for (const path of missing) console.error(`  ${relative(root, path).split('\\').join('/')}`);
  process.exit(1);
}
console.log(`every repository has its repo-spec (${all.length})`);
