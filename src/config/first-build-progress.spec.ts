import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface Target {
  what: string;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the plain CommonJS script `npm start` runs
const script = require('../../scripts/build-if-stale.js') as {
  targets: Record<'server' | 'console', Target>;
  announce(target: Target, firstBuild: boolean): string;
  runWithProgress(command: string, args: string[], opts: { what: string; say: (line: string) => void; everyMs: number }): Promise<number>;
};

describe("npm start's build step", () => {
  it('says what the first build does and that it takes a few minutes', () => {
    const line = script.announce(script.targets.server, true);
    expect(line).toMatch(/^building dist\/ for the first time \(the TypeScript compiler .*\); this takes a few minutes/);
    expect(script.announce(script.targets.console, true)).toMatch(
      /console\/dist\/ for the first time \(Vite bundles the developer console\)/,
    );
    expect(script.announce(script.targets.server, false)).toBe('building dist/ (sources changed since the last build)…');
  });

  it('prints progress lines while a long build runs, then how long it took', async () => {
    // A stand-in for the compiler that runs until the test has seen two progress lines.
    const dir = mkdtempSync(join(tmpdir(), 'build-progress-'));
    const done = join(dir, 'done');
    const lines: string[] = [];
    const say = (line: string) => {
      lines.push(line);
      if (lines.filter((l) => l.includes('still building')).length === 2 && !existsSync(done)) writeFileSync(done, '');
    };
    const waitForFile = `const fs = require('fs'); const t = setInterval(() => { if (fs.existsSync(${JSON.stringify(done)})) { clearInterval(t); process.exit(0); } }, 10);`;
    const status = await script.runWithProgress(process.execPath, ['-e', waitForFile], { what: 'dist/', say, everyMs: 20 });
    expect(status).toBe(0);
    expect(lines.slice(0, 2)).toEqual([
      expect.stringMatching(/^ {2}still building dist\/: \d+ s so far…$/),
      expect.stringMatching(/^ {2}still building dist\/: \d+ s so far…$/),
    ]);
    expect(lines[lines.length - 1]).toMatch(/^ {2}built dist\/ in \d+ s$/);
  });

  it("answers the tool's failure as its exit status, without claiming it built", async () => {
    const lines: string[] = [];
    const status = await script.runWithProgress(process.execPath, ['-e', 'process.exit(3)'], {
      what: 'dist/',
      say: (l) => lines.push(l),
      everyMs: 60_000,
    });
    expect(status).toBe(3);
    expect(lines.filter((l) => l.startsWith('  built'))).toEqual([]);
  });
});
