import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/** The variables the service reads: the validated properties of EnvSchema. */
function schemaVariables(): string[] {
  const source = readFileSync(join(__dirname, 'config.ts'), 'utf8');
  const schema = source.slice(source.indexOf('export class EnvSchema'));
  const body = schema.slice(0, schema.indexOf('\n}\n'));
  return [...body.matchAll(/^\s*@[^\n]*?\b([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)[?!]?\s*[:=]/gm)].map((m) => m[1]);
}

describe('.env.example', () => {
  it('lists every variable the service reads, so an operator sees each one and its default', () => {
    const example = readFileSync(join(ROOT, '.env.example'), 'utf8');
    const listed = new Set([...example.matchAll(/^#?\s*([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]));
    const variables = schemaVariables();
    expect(variables.length).toBeGreaterThan(50);
    expect(variables.filter((name) => !listed.has(name))).toEqual([]);
  });
});
