import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/** The Node flags in front of dist/main.js in a command line. */
function nodeFlags(words: string[]): string[] {
  return words.slice(words.indexOf('node') + 1, words.indexOf('dist/main.js'));
}

describe('the production start command (decisions 0123 and 0186)', () => {
  const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const startProd = nodeFlags(scripts['start:prod'].split(/\s+/));

  it('sizes the heap for the live set', () => {
    expect(startProd).toEqual(
      expect.arrayContaining([expect.stringMatching(/^--max-old-space-size=\d+$/), expect.stringMatching(/^--max-semi-space-size=\d+$/)]),
    );
  });

  it('keeps short-lived allocations young: no allocation-site pretenuring', () => {
    expect(startProd).toContain('--no-allocation-site-pretenuring');
  });

  it('is the same in the Docker image and in npm start', () => {
    const cmd = /^CMD (\[.*\])$/m.exec(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'))![1];
    expect(nodeFlags(JSON.parse(cmd) as string[])).toEqual(startProd);
    const start = scripts.start.split('&&').pop()!.trim().split(/\s+/);
    expect(nodeFlags(start)).toEqual(startProd);
  });
});
