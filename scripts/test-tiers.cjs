#!/usr/bin/env node
/**
 * Per-tier times of one whole `npm test`, from its Jest JSON report (Jest prints no per-project times):
 *   CI=true npx jest --json --outputFile=/tmp/suite.json; node scripts/test-tiers.cjs /tmp/suite.json
 * The tiers run interleaved on the same two workers, so a tier's time is the sum of its files' times
 * (what it costs the run: divide by the worker count for its share of the wall clock), beside the run's
 * own wall time from the first file's start to the last file's end.
 */
const { readFileSync } = require('node:fs');

const [report] = process.argv.slice(2);
if (!report) {
  console.error('usage: node scripts/test-tiers.cjs <jest --json report>');
  process.exit(2);
}
const { startTime, testResults, numTotalTests, numFailedTests } = JSON.parse(readFileSync(report, 'utf8'));
// The same split as the projects' testMatch in jest.config.js.
const tierOf = (path) => (path.endsWith('.e2e-spec.ts') ? 'e2e' : path.endsWith('.repo-spec.ts') ? 'repository' : 'unit');
const tiers = new Map();
for (const file of testResults) {
  const tier = tiers.get(tierOf(file.name)) ?? { files: 0, tests: 0, failed: 0, seconds: 0 };
  tier.files += 1;
  tier.tests += file.assertionResults.length;
  tier.failed += file.assertionResults.filter((test) => test.status === 'failed').length;
  tier.seconds += (file.endTime - file.startTime) / 1000;
  tiers.set(tierOf(file.name), tier);
}
const lastEnd = Math.max(...testResults.map((file) => file.endTime));
console.log(
  `run started ${new Date(startTime).toISOString()}: ${testResults.length} files, ${numTotalTests} tests, ${numFailedTests} failed`,
);
console.log(`wall, from the run's start to the last file's end: ${((lastEnd - startTime) / 1000).toFixed(0)} s`);
console.log('tier        files  tests  failed  file-seconds');
for (const name of ['unit', 'repository', 'e2e']) {
  const t = tiers.get(name);
  if (t) {
    console.log(
      `${name.padEnd(10)} ${String(t.files).padStart(6)} ${String(t.tests).padStart(6)} ${String(t.failed).padStart(7)} ${t.seconds.toFixed(0).padStart(13)}`,
    );
  }
}
