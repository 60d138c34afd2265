import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AnyScenario } from './types';

/**
 * Every bench/scenarios/*.ts file (not *.spec.ts, not _helpers) exporting `scenario`
 * or `scenarios`. Discovery by directory keeps areas from editing a shared index.
 */
export function loadScenarios(dir: string): AnyScenario[] {
  const files = readdirSync(dir)
    .filter((f) => /\.ts$/.test(f) && !/\.(spec|d)\.ts$/.test(f) && !f.startsWith('_'))
    .sort();
  const all: AnyScenario[] = [];
  for (const file of files) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const mod = require(join(dir, file)) as { scenario?: AnyScenario; scenarios?: AnyScenario[] };
    const found = [...(mod.scenario ? [mod.scenario] : []), ...(mod.scenarios ?? [])];
    if (found.length === 0) throw new Error(`bench/scenarios/${file} exports neither scenario nor scenarios`);
    all.push(...found);
  }
  assertUniqueNames(all);
  return all;
}

function assertUniqueNames(scenarios: AnyScenario[]): void {
  const seen = new Set<string>();
  for (const s of scenarios) {
    if (!/^[a-z0-9][a-z0-9-]*$/.test(s.name)) throw new Error(`scenario name "${s.name}" must be kebab-case`);
    if (!/^[a-z0-9][a-z0-9-]*$/.test(s.area)) throw new Error(`scenario area "${s.area}" must be kebab-case`);
    if (seen.has(s.name)) throw new Error(`two scenarios are named ${s.name}`);
    seen.add(s.name);
  }
}
