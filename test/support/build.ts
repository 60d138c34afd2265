import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
/** One lock per checkout, shared by every Jest worker and run in it: one build at a time. */
const BUILD_LOCK = join(tmpdir(), `idsvc-build-${createHash('sha256').update(ROOT).digest('hex').slice(0, 16)}.lock`);
let built: Promise<void> | undefined;

/**
 * Builds dist/ when a source changed since the last build (`npm start`'s own step,
 * scripts/build-if-stale.js), once per process and one process at a time (flock). Instances that
 * tests start as processes run the compiled JavaScript, as operators run it, so compiling is never
 * inside a readiness deadline.
 */
export function ensureBuilt(): Promise<void> {
  built ??= new Promise<void>((resolve, reject) => {
    execFile('flock', [BUILD_LOCK, process.execPath, join(ROOT, 'scripts/build-if-stale.js')], { cwd: ROOT }, (err, stdout, stderr) =>
      err ? reject(new Error(`building dist/ failed: ${err.message}\n${stdout}\n${stderr}`)) : resolve(),
    );
  });
  return built;
}

function specFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return specFiles(path);
    return name.endsWith('.e2e-spec.ts') ? [path] : [];
  });
}

/** True when the run's path pattern selects a suite that starts the service as a process (spawnApp). */
export function runSpawnsInstances(testPathPattern: string | undefined): boolean {
  let pattern: RegExp;
  try {
    pattern = new RegExp(testPathPattern ?? '', 'i');
  } catch {
    return true;
  }
  return specFiles(join(ROOT, 'test')).some((file) => pattern.test(file) && readFileSync(file, 'utf8').includes('spawnApp('));
}
