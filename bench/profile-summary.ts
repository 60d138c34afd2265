/**
 * Summarises a V8 .cpuprofile (from `npm run bench -- --cpu-prof`): self time by
 * function and by package, and inclusive time of the hottest frames.
 *   npx ts-node bench/profile-summary.ts bench/results/profiles/<server>-<time>/<file>.cpuprofile [top]
 */
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

const [file, topArg] = process.argv.slice(2);
if (!file) throw new Error('usage: profile-summary.ts <file.cpuprofile> [top]');
const top = Number(topArg ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const self = new Map<number, number>();
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const total = [...self.values()].reduce((a, b) => a + b, 0);

const pkg = (url: string) => {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1];
  if (url.includes('/dist/')) return '(app dist)';
  if (url.startsWith('node:') || !url) return '(node/native)';
  return url;
};
const label = (n: Node) => `${n.callFrame.functionName || '(anonymous)'} ${pkg(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;

const selfByLabel = new Map<string, number>();
const selfByPkg = new Map<string, number>();
const inclusive = new Map<string, number>();
for (const [id, t] of self) {
  const n = byId.get(id)!;
  selfByLabel.set(label(n), (selfByLabel.get(label(n)) ?? 0) + t);
  selfByPkg.set(pkg(n.callFrame.url), (selfByPkg.get(pkg(n.callFrame.url)) ?? 0) + t);
  const seen = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const l = label(byId.get(cur)!);
    if (!seen.has(l)) inclusive.set(l, (inclusive.get(l) ?? 0) + t);
    seen.add(l);
  }
}

const show = (title: string, m: Map<string, number>) => {
  console.log(`\n${title}`);
  [...m.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .forEach(([k, v]) => console.log(`${((v / total) * 100).toFixed(1).padStart(6)} %  ${k}`));
};
console.log(`total sampled ${(total / 1e6).toFixed(2)} s`);
show('self time by package', selfByPkg);
show('self time by function', selfByLabel);
show('inclusive time by function', inclusive);
