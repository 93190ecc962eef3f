// Prints the gzip size of the JavaScript the browser loads before the first page renders (the
// entry chunk and its static imports, as listed in dist/index.html) and fails above the budget.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET_KB = 300;
const dist = 'dist';
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const scripts = [...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="\/?([^"]+\.js)"/g)].map((m) => m[1]);
if (scripts.length === 0) {
  console.error('no scripts found in dist/index.html; run npm run build first');
  process.exit(1);
}
let total = 0;
for (const file of [...new Set(scripts)]) {
  const gz = gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
  total += gz;
  console.log(`${(gz / 1024).toFixed(1).padStart(8)} KB  ${file}`);
}
const kb = total / 1024;
console.log(`initial JS (gzip): ${kb.toFixed(1)} KB (budget ${BUDGET_KB} KB)`);
if (kb > BUDGET_KB) {
  console.error(`initial JS is over the ${BUDGET_KB} KB budget`);
  process.exit(1);
}
