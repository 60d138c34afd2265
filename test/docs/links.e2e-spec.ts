import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return markdownFiles(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

/** Inline links and images: [text](target) and ![alt](target), without their optional "title". */
function relativeTargets(markdown: string): string[] {
  const targets = [...markdown.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]);
  return targets.filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t) && !t.startsWith('#'));
}

/**
 * Headings with nothing under them before the next heading of their level or higher: a section that
 * promises a topic and says nothing (a heading followed by its own sub-headings has content).
 */
function emptySections(markdown: string): string[] {
  const empty: string[] = [];
  let inFence = false;
  let open: { level: number; heading: string; hasBody: boolean } | null = null;
  const close = (nextLevel: number) => {
    if (open && !open.hasBody && nextLevel <= open.level) empty.push(open.heading);
  };
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) {
      inFence = !inFence;
      if (open) open.hasBody = true;
      continue;
    }
    const heading = inFence ? null : /^(#{1,6})\s+\S/.exec(line);
    if (heading) {
      close(heading[1].length);
      open = { level: heading[1].length, heading: line.trim(), hasBody: false };
    } else if (open && line.trim()) {
      open.hasBody = true;
    }
  }
  close(1);
  return empty;
}

/** The repository stands alone: every relative link in its docs names a file that is in it. */
describe('documentation links', () => {
  const files = [join(ROOT, 'README.md'), join(ROOT, 'BENCHMARKS.md'), ...markdownFiles(join(ROOT, 'docs'))];

  it.each(files.map((f) => [relative(ROOT, f), f]))('%s links only to files in the repository', (_name, file) => {
    const broken = relativeTargets(readFileSync(file, 'utf8'))
      .map((target) => ({ target, path: resolve(dirname(file), decodeURI(target.split('#')[0])) }))
      .filter(({ path }) => !path.startsWith(ROOT + '/') || !existsSync(path))
      .map(({ target }) => target);
    expect(broken).toEqual([]);
  });

  it('no doc has an empty section (a heading with nothing under it before the next one of its level)', () => {
    const empty = files.flatMap((file) =>
      emptySections(readFileSync(file, 'utf8')).map((heading) => `${relative(ROOT, file)}: ${heading}`),
    );
    expect(empty).toEqual([]);
  });

  it('no doc refers to a file outside the repository', () => {
    const outside = files.filter((f) => /\.\.\/shared|CONTRACT\.md|shared\/ARCHITECTURE/.test(readFileSync(f, 'utf8')));
    expect(outside.map((f) => relative(ROOT, f))).toEqual([]);
  });

  /** Every TypeScript file under a folder. */
  function sourceFiles(dir: string): string[] {
    return readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return sourceFiles(path);
      return name.endsWith('.ts') ? [path] : [];
    });
  }

  it('source comments name only docs that exist, by their path from the repository root', () => {
    const missing = sourceFiles(join(ROOT, 'src')).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/(?:^|[\s(`'"])((?:docs\/[\w./-]+|[A-Z][A-Z_]*)\.md)\b/gm)]
        .map((m) => m[1])
        .filter((doc) => !existsSync(join(ROOT, doc)))
        .map((doc) => `${relative(ROOT, file)}: ${doc}`),
    );
    expect(missing).toEqual([]);
  });

  it('the docs name only decorators the code has', () => {
    const code = sourceFiles(join(ROOT, 'src'))
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
    const named = files.flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/`@([A-Z]\w*)\(/g)].map((m) => m[1]));
    const unknown = [...new Set(named)].filter(
      (name) => !new RegExp(`export (?:function|const) ${name}\\b`).test(code) && !new RegExp(`import \\{[^}]*\\b${name}\\b`).test(code),
    );
    expect(unknown).toEqual([]);
  });
});
