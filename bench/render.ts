/**
 * Re-renders the BENCHMARKS.md blocks from bench/results/latest.json without measuring
 * (after a change to the table layout):  npx ts-node bench/render.ts
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { RunReport, writeMarkdown } from './lib/report';

const root = resolve(__dirname, '..');
const report = JSON.parse(readFileSync(join(root, 'bench/results/latest.json'), 'utf8')) as RunReport;
writeMarkdown(join(root, 'BENCHMARKS.md'), report);
console.log(`BENCHMARKS.md re-rendered from the run of ${report.finishedAt}`);
