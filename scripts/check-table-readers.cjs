#!/usr/bin/env node
// SQL that names end_users outside the modules allowed to read it (scripts/table-readers.cjs).
// Entities are left out (a foreign key to end_users declares the schema, it reads nothing), and so
// are comments, migrations and unit tests. Part of `npm run lint:layers`; exit 1 on a finding.
const { readdirSync, readFileSync, statSync } = require('node:fs');
const { join, relative } = require('node:path');
const { END_USER_READERS } = require('./table-readers.cjs');

const root = join(__dirname, '..');
const SKIP = [/\/migrations\//, /\/entities\//, /\.(repo-)?spec\.ts$/];

function* sources(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sources(path);
    else if (path.endsWith('.ts')) yield path;
  }
}

/** The file without its comments, so that prose about the table is not mistaken for a read. */
const withoutComments = (text) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

const findings = [];
for (const path of sources(join(root, 'src'))) {
  const file = relative(root, path).split('\\').join('/');
  if (SKIP.some((pattern) => pattern.test(file))) continue;
  if (END_USER_READERS.some(({ folder }) => file.startsWith(folder))) continue;
  withoutComments(readFileSync(path, 'utf8'))
    .split('\n')
    .forEach((line, index) => {
      if (/\bend_users\b/.test(line)) findings.push(`${file}:${index + 1}: ${line.trim()}`);
    });
}

if (findings.length > 0) {
  console.error('SQL naming end_users outside its readers (scripts/table-readers.cjs, decision 0155):');
  for (const finding of findings) console.error(`  ${finding}`);
  process.exit(1);
}
console.log(`end_users is read only by ${END_USER_READERS.map(({ folder }) => folder).join(', ')}`);
