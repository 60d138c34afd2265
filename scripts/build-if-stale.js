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
const { spawn } = require('node:child_process');
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
    first: 'the TypeScript compiler checks and compiles the service',
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
    first: 'Vite bundles the developer console',
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

/** How often a running build says it is still at work (a first build is minutes of compiler silence). */
const PROGRESS_EVERY_MS = 15_000;

/**
 * Runs a build tool and resolves with its exit status. While it runs, `say` gets a line every
 * `everyMs` with the time spent so far, so a first `npm start` never looks hung.
 */
function runWithProgress(command, args, { what, env, say, everyMs = PROGRESS_EVERY_MS }) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
    const ticker = setInterval(() => say(`  still building ${what}: ${Math.round((Date.now() - started) / 1000)} s so far…`), everyMs);
    const finish = (status) => {
      clearInterval(ticker);
      if (status === 0) say(`  built ${what} in ${Math.round((Date.now() - started) / 1000)} s`);
      resolve(status);
    };
    child.once('error', () => finish(1));
    child.once('exit', (code) => finish(code ?? 1));
  });
}

/** What the build of a target is about to do, and why it takes a while the first time. */
function announce(target, firstBuild) {
  if (!firstBuild) return `building ${target.what} (sources changed since the last build)…`;
  return `building ${target.what} for the first time (${target.first}); this takes a few minutes, progress follows…`;
}

/** Builds one target when stale (or forced); resolves with the exit status (0: built or up to date). */
async function buildIfStale(name, force = false, { say = (line) => process.stdout.write(`${line}\n`), everyMs } = {}) {
  const target = targets[name];
  if (!force && !isStale(target)) {
    say(`${target.what} is up to date: not rebuilding (npm run build forces a rebuild)`);
    return 0;
  }
  if (!existsSync(target.tool)) {
    // `npm ci --omit=dev`: the build tools are dev dependencies. Keep whatever was built before.
    say(`${target.what} is out of date but its build tool is not installed (npm ci installs it)`);
    return existsSync(target.output) ? 0 : 1;
  }
  say(announce(target, !existsSync(target.output)));
  const status = await runWithProgress(process.execPath, [target.tool, ...target.args], {
    what: target.what,
    env: target.env,
    say,
    everyMs,
  });
  if (status !== 0) return status;
  writeFileSync(target.stamp, `${new Date().toISOString()}\n`);
  return 0;
}

module.exports = { buildIfStale, runWithProgress, announce, targets };

async function main() {
  const force = process.argv.includes('--force');
  const names = process.argv.includes('--console') ? ['console'] : ['server', 'console'];
  for (const name of names) {
    const status = await buildIfStale(name, force);
    // The service runs without a console (it answers 503 at /console/), so only the server's build is fatal.
    if (status !== 0 && name === 'server') process.exit(status);
    if (status !== 0) process.stdout.write('the console could not be built: /console/ will answer 503 until it is\n');
  }
}

if (require.main === module) void main();
