import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { CONSOLE_CSP, loadConsoleFiles, resolveConsolePath } from './console-files';

describe('console files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'console-dist-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(join(dir, 'assets', 'index-abc.js'), `console.log(${JSON.stringify('x'.repeat(4000))});`);
  writeFileSync(join(dir, 'favicon.svg'), '<svg/>');
  writeFileSync(join(dir, '.build-stamp'), 'now');

  it('is undefined when the console is not built', () => {
    expect(loadConsoleFiles(join(dir, 'missing'))).toBeUndefined();
  });

  it('answers files, deep links with index.html, and missing assets or file names with nothing', () => {
    const files = loadConsoleFiles(dir)!;
    expect(files.has('.build-stamp')).toBe(false);
    const js = resolveConsolePath(files, 'assets/index-abc.js')!;
    expect(js.type).toMatch(/^text\/javascript/);
    expect(js.immutable).toBe(true);
    expect(gunzipSync(js.gzip!).equals(js.body)).toBe(true);
    expect(resolveConsolePath(files, 'favicon.svg')!.gzip).toBeUndefined();
    const index = files.get('index.html')!;
    expect(index.immutable).toBe(false);
    expect(resolveConsolePath(files, '')).toBe(index);
    expect(resolveConsolePath(files, 'w/0b6f2d4e-5a7c-4c1e-9f3a-2d8e6b1c7a90/audit')).toBe(index);
    expect(resolveConsolePath(files, 'assets/gone-123.js')).toBeUndefined();
    expect(resolveConsolePath(files, 'robots.txt')).toBeUndefined();
  });

  it('allows nothing inline and nothing from another origin', () => {
    expect(CONSOLE_CSP).toContain("default-src 'none'");
    expect(CONSOLE_CSP).not.toMatch(/unsafe-inline|unsafe-eval|https?:|\*/);
  });
});
