// Runs Vitest with its JSON reporter and prints the plain summary line the CI recognises:
// "N passed, N failed, N skipped". Exits with Vitest's status.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';

const report = 'test-results/vitest.json';
mkdirSync('test-results', { recursive: true });
rmSync(report, { force: true });
const run = spawnSync(
  process.execPath,
  ['node_modules/vitest/vitest.mjs', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)],
  { stdio: 'inherit' },
);
let passed = 0;
let failed = 0;
let skipped = 0;
try {
  const json = JSON.parse(readFileSync(report, 'utf8'));
  passed = json.numPassedTests;
  failed = json.numFailedTests;
  skipped = json.numPendingTests + json.numTodoTests;
} catch (error) {
  console.error(`no Vitest JSON report (${error.message})`);
  failed = Math.max(failed, 1);
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(run.status === 0 && failed === 0 ? 0 : 1);
