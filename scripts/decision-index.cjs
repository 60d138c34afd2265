#!/usr/bin/env node
// Writes docs/decisions/README.md: one table of every decision record, with its status, read from
// the records themselves (the title line, and "Superseded by" / "Supersedes" near the top).
// `node scripts/decision-index.cjs --check` (part of `npm run lint`) fails when the index is stale.
const { readdirSync, readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const dir = join(__dirname, '..', 'docs', 'decisions');
const INDEX = join(dir, 'README.md');
const RECORD = /^(\d{4})-.+\.md$/;

const records = readdirSync(dir)
  .filter((name) => RECORD.test(name))
  .sort()
  .map((file) => {
    const text = readFileSync(join(dir, file), 'utf8');
    const [first = ''] = text.split('\n');
    const number = file.slice(0, 4);
    const title = first.replace(/^#\s*/, '').replace(new RegExp(`^${number}[:.]?\\s*`), '');
    // The lines under the title say whether the record still holds, and what it replaced.
    const head = text.split('\n').slice(1, 6).join('\n');
    return { file, number, title, head };
  });

const numbersIn = (text) => [...text.matchAll(/\b(\d{4})\b/g)].map((m) => m[1]);

/** number → the records that say they supersede it (in whole or in part). */
const supersededBy = new Map();
for (const record of records) {
  for (const line of record.head.split('\n').filter((l) => /\bsupersedes\b/i.test(l))) {
    for (const number of numbersIn(line.replace(/\(issue \d+\)/gi, ''))) {
      if (number === record.number) continue;
      if (!supersededBy.has(number)) supersededBy.set(number, new Set());
      supersededBy.get(number).add(record.number);
    }
  }
}

function statusOf(record) {
  const own = record.head.split('\n').filter((l) => /^\*\*Superseded/i.test(l));
  const by = new Set(supersededBy.get(record.number) ?? []);
  for (const line of own) for (const number of numbersIn(line)) if (number !== record.number) by.add(number);
  const list = [...by].sort().map((n) => `[${n}](${records.find((r) => r.number === n)?.file ?? ''})`);
  if (own.length > 0) return list.length ? `Superseded by ${list.join(', ')}` : 'Superseded';
  return list.length ? `Accepted, in part superseded by ${list.join(', ')}` : 'Accepted';
}

const cell = (text) => text.replace(/\|/g, '\\|');
const rows = records.map((r) => `| [${r.number}](${r.file}) | ${cell(r.title)} | ${statusOf(r)} |`);
const index = [
  '# Decision records',
  '',
  'One file per choice and why, numbered by area. Written by `node scripts/decision-index.cjs` from the',
  'records themselves (title, and the "Superseded by" / "Supersedes" lines under it); `npm run lint` fails',
  'when this index is stale. A superseded record is kept for its history.',
  '',
  '| Record | Decision | Status |',
  '| --- | --- | --- |',
  ...rows,
  '',
].join('\n');

if (process.argv.includes('--check')) {
  const current = (() => {
    try {
      return readFileSync(INDEX, 'utf8');
    } catch {
      return '';
    }
  })();
  if (current !== index) {
    console.error('docs/decisions/README.md is stale: run `node scripts/decision-index.cjs`');
    process.exit(1);
  }
  // Rendered as the guide renders docs (markdown-it): one table, one row per record.
  const html = new (require('markdown-it'))().render(current);
  const tables = html.match(/<table>/g)?.length ?? 0;
  const bodyRows = (html.split('<tbody>')[1] ?? '').match(/<tr>/g)?.length ?? 0;
  if (tables !== 1 || bodyRows !== records.length) {
    console.error(`docs/decisions/README.md renders as ${tables} table(s) with ${bodyRows} rows, not 1 with ${records.length}`);
    process.exit(1);
  }
  console.log(`decision index current (${records.length} records)`);
} else {
  writeFileSync(INDEX, index);
  console.log(`docs/decisions/README.md: ${records.length} records`);
}
