#!/usr/bin/env node
/**
 * `npm start`'s build step: runs `nest build` only when a source or build setting is newer
 * than the last successful build (dist/.build-stamp), so starting an already built
 * checkout costs no compilation. Plain JavaScript: it must not need a compiler itself.
 */
const { spawnSync } = require('node:child_process');
const { existsSync, readdirSync, statSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const stamp = join(root, 'dist', '.build-stamp');
const inputs = ['src', 'tsconfig.json', 'tsconfig.build.json', 'nest-cli.json', 'package-lock.json'];

function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

const built = existsSync(stamp) && existsSync(join(root, 'dist', 'main.js')) ? statSync(stamp).mtimeMs : 0;
const changed = Math.max(...inputs.map((input) => newest(join(root, input))));
if (built >= changed && process.argv[2] !== '--force') {
  process.stdout.write('dist/ is up to date with src/: not rebuilding (npm run build forces a rebuild)\n');
  process.exit(0);
}
process.stdout.write('building dist/ (sources changed since the last build)…\n');
const result = spawnSync(process.execPath, [join(root, 'node_modules', '@nestjs', 'cli', 'bin', 'nest.js'), 'build'], {
  cwd: root,
  stdio: 'inherit',
});
if (result.status !== 0) process.exit(result.status ?? 1);
writeFileSync(stamp, `${new Date().toISOString()}\n`);
