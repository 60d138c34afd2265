/** Command-line options of `npm run bench -- [options]`. */
export interface BenchOptions {
  /** Scenario names to run (exact, or a prefix ending in `*`); empty = all. */
  only: string[];
  durationSec: number;
  warmupSec: number;
  connections: number;
  /** Paired (baseline, scenario) windows per scenario; the median round is reported. */
  rounds: number;
  /** Skip `nest build` (use the existing dist/). */
  noBuild: boolean;
  /** Start the service with --cpu-prof; profiles land in bench/results/profiles/. */
  cpuProf: boolean;
  /** Print the registered scenarios and exit. */
  list: boolean;
  /** Measure and print, but write no results (implied by --cpu-prof: profiling slows the server). */
  noSave: boolean;
}

export const USAGE = `npm run bench -- [--only=name[,name|prefix*]] [--duration=10] [--warmup=3]
                     [--connections=10] [--rounds=1] [--no-build] [--cpu-prof] [--no-save] [--list]`;

export function parseArgs(argv: string[]): BenchOptions {
  const opts: BenchOptions = {
    only: [],
    durationSec: 10,
    warmupSec: 3,
    connections: 10,
    rounds: 1,
    noBuild: false,
    cpuProf: false,
    list: false,
    noSave: false,
  };
  for (const arg of argv) {
    const [key, value] = splitArg(arg);
    switch (key) {
      case '--only':
        opts.only = requireValue(key, value)
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        break;
      case '--duration':
        opts.durationSec = positiveNumber(key, value);
        break;
      case '--warmup':
        opts.warmupSec = positiveNumber(key, value, true);
        break;
      case '--connections':
        opts.connections = positiveNumber(key, value);
        break;
      case '--rounds':
        opts.rounds = Math.round(positiveNumber(key, value));
        break;
      case '--no-build':
        opts.noBuild = true;
        break;
      case '--cpu-prof':
        opts.cpuProf = true;
        break;
      case '--list':
        opts.list = true;
        break;
      case '--no-save':
        opts.noSave = true;
        break;
      default:
        throw new Error(`unknown option ${arg}\nusage: ${USAGE}`);
    }
  }
  return opts;
}

function splitArg(arg: string): [string, string | undefined] {
  const eq = arg.indexOf('=');
  return eq < 0 ? [arg, undefined] : [arg.slice(0, eq), arg.slice(eq + 1)];
}

function requireValue(key: string, value: string | undefined): string {
  if (!value) throw new Error(`${key} needs a value, e.g. ${key}=...`);
  return value;
}

function positiveNumber(key: string, value: string | undefined, allowZero = false): number {
  const n = Number(requireValue(key, value));
  if (!Number.isFinite(n) || n < 0 || (!allowZero && n === 0)) throw new Error(`${key} must be a positive number`);
  return n;
}

/** True when `name` is selected by the --only patterns. */
export function isSelected(name: string, only: string[]): boolean {
  if (only.length === 0) return true;
  return only.some((p) => (p.endsWith('*') ? name.startsWith(p.slice(0, -1)) : name === p));
}
