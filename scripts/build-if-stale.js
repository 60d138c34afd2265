#!/usr/bin/env node
/**
 * `npm start`'s build step: builds what is older than its sources, so starting an already built
 * checkout costs no compilation.
 *   - the server: `nest build` into dist/ when src/ or a build setting is newer than dist/.build-stamp;
 *   - the developer console: `vite build` into console/dist/ when console/ or the typed client is newer
 *     than console/dist/.build-stamp (decision 0801).
 * `--force` rebuilds both; `--console` looks at the console only (the e2e global setup uses it).
 * Plain JavaScript: it must not need a compiler itself.
 */
const { spawnSync } = require('node:child_process');
const { existsSync, readdirSync, statSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');

const targets = {
  server: {
    what: 'dist/',
    stamp: join(root, 'dist', '.build-stamp'),
    output: join(root, 'dist', 'main.js'),
    inputs: ['src', 'tsconfig.json', 'tsconfig.build.json', 'nest-cli.json', 'package-lock.json'],
    tool: join(root, 'node_modules', '@nestjs', 'cli', 'bin', 'nest.js'),
    args: ['build'],
  },
  console: {
    what: 'console/dist/',
    stamp: join(root, 'console', 'dist', '.build-stamp'),
    output: join(root, 'console', 'dist', 'index.html'),
    inputs: [
      'console/src',
      'console/public',
      'console/index.html',
      'console/vite.config.mts',
      'clients/typescript/openapi.d.ts',
      'package-lock.json',
    ],
    tool: join(root, 'node_modules', 'vite', 'bin', 'vite.js'),
    args: ['build', '--config', join(root, 'console', 'vite.config.mts')],
    // Vite keeps an inherited NODE_ENV: under Jest (NODE_ENV=test) it would bundle React's development build.
    env: { NODE_ENV: 'production' },
  },
};

function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

function isStale(target) {
  const built = existsSync(target.stamp) && existsSync(target.output) ? statSync(target.stamp).mtimeMs : 0;
  return Math.max(...target.inputs.map((input) => newest(join(root, input)))) > built;
}

/** Builds one target when stale (or forced); returns the exit status (0: built or up to date). */
function buildIfStale(name, force = false) {
  const target = targets[name];
  if (!force && !isStale(target)) {
    process.stdout.write(`${target.what} is up to date: not rebuilding (npm run build forces a rebuild)\n`);
    return 0;
  }
  if (!existsSync(target.tool)) {
    // `npm ci --omit=dev`: the build tools are dev dependencies. Keep whatever was built before.
    process.stdout.write(`${target.what} is out of date but its build tool is not installed (npm ci installs it)\n`);
    return existsSync(target.output) ? 0 : 1;
  }
  process.stdout.write(`building ${target.what} (sources changed since the last build)…\n`);
  const result = spawnSync(process.execPath, [target.tool, ...target.args], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...target.env },
  });
  if (result.status !== 0) return result.status ?? 1;
  writeFileSync(target.stamp, `${new Date().toISOString()}\n`);
  return 0;
}

module.exports = { buildIfStale };

if (require.main === module) {
  const force = process.argv.includes('--force');
  const names = process.argv.includes('--console') ? ['console'] : ['server', 'console'];
  for (const name of names) {
    const status = buildIfStale(name, force);
    // The service runs without a console (it answers 503 at /console/), so only the server's build is fatal.
    if (status !== 0 && name === 'server') process.exit(status);
    if (status !== 0) process.stdout.write('the console could not be built: /console/ will answer 503 until it is\n');
  }
}
