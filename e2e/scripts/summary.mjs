// Prints the plain "N passed, N failed, N skipped" line from Playwright's JSON report.
import { readFileSync } from 'node:fs';

try {
  const { stats } = JSON.parse(readFileSync(process.argv[2] ?? 'test-results/results.json', 'utf8'));
  console.log(`${stats.expected + stats.flaky} passed, ${stats.unexpected} failed, ${stats.skipped} skipped`);
} catch (error) {
  console.log(`0 passed, 1 failed, 0 skipped`);
  console.error(`no Playwright JSON report (${error.message})`);
}
