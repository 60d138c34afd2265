#!/usr/bin/env node
// Folder-level import cycles in src/: two feature folders that import each other (or a longer loop
// of folders) although no single file cycle exists, which dependency-cruiser's no-cycle rule cannot
// see. A folder is src/<name>/; the app files (src/*.ts), tests beside the code and migrations are
// left out, as in .dependency-cruiser.cjs. Part of `npm run lint:layers`; exit 1 on a finding.
const { readdirSync, readFileSync, statSync } = require('node:fs');
const { dirname, join, relative, resolve } = require('node:path');

const root = join(__dirname, '..');
const src = join(root, 'src');
const SKIP = [/\/migrations\//, /\.(repo-)?spec\.ts$/];
const IMPORT = /(?:from\s+|import\s*\(\s*|import\s+|require\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

function* sources(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sources(path);
    else if (path.endsWith('.ts')) yield path;
  }
}

/** src/<folder>/… → folder; anything else (the app files, outside src) → null. */
function folderOf(path) {
  const parts = relative(src, path).split(/[\\/]/);
  return parts.length > 1 && parts[0] !== '..' ? parts[0] : null;
}

/** folder → (folder → one file import that makes the arrow, for the message). */
const arrows = new Map();
for (const path of sources(src)) {
  const file = relative(root, path).split('\\').join('/');
  const from = folderOf(path);
  if (!from || SKIP.some((pattern) => pattern.test(file))) continue;
  for (const [, specifier] of readFileSync(path, 'utf8').matchAll(IMPORT)) {
    const to = folderOf(resolve(dirname(path), specifier));
    if (!to || to === from) continue;
    if (!arrows.has(from)) arrows.set(from, new Map());
    if (!arrows.get(from).has(to)) arrows.get(from).set(to, `${file} → ${specifier}`);
  }
}

/** Strongly connected components (Tarjan): every component of more than one folder is a cycle. */
function components(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  let next = 0;
  const visit = (node) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node)?.keys() ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node), low.get(to)));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node), index.get(to)));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

const cycles = components(arrows);
if (cycles.length > 0) {
  console.error('Folders of src/ that import each other (move the shared part down, or offer a port in the lower one):');
  for (const folders of cycles) {
    console.error(`  ${folders.join(' ⇄ ')}`);
    for (const from of folders) {
      for (const to of folders) {
        const example = arrows.get(from)?.get(to);
        if (example) console.error(`    ${from} → ${to}: ${example}`);
      }
    }
  }
  process.exit(1);
}
console.log(`no folder cycles among ${arrows.size} folders of src/`);
