// Prints the gzip size of the JavaScript the browser loads before the first page renders (the entry chunk and its
// static imports, as listed in dist/index.html) and fails above the budget; then, for reference, the brotli size
// `vite preview` actually sends and the size of all the JavaScript of the build.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const BUDGET_KB = 300;
const dist = 'dist';
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const scripts = [...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="\/?([^"]+\.js)"/g)].map((m) => m[1]);
if (scripts.length === 0) {
  console.error('no scripts found in dist/index.html; run npm run build first');
  process.exit(1);
}
const gzipKb = (file) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length / 1024;
const brotliKb = (file) =>
  brotliCompressSync(readFileSync(join(dist, file)), { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length / 1024;
const sum = (files, size) => files.reduce((total, file) => total + size(file), 0);

const initial = [...new Set(scripts)];
for (const file of initial) console.log(`${gzipKb(file).toFixed(1).padStart(8)} KB  ${file}`);
const kb = sum(initial, gzipKb);
console.log(`initial JS (gzip): ${kb.toFixed(1)} KB (budget ${BUDGET_KB} KB); brotli, as served: ${sum(initial, brotliKb).toFixed(1)} KB`);
const all = readdirSync(join(dist, 'assets')).filter((f) => f.endsWith('.js')).map((f) => join('assets', f));
console.log(`all JS (gzip): ${sum(all, gzipKb).toFixed(1)} KB in ${all.length} chunks`);
if (kb > BUDGET_KB) {
  console.error(`initial JS is over the ${BUDGET_KB} KB budget`);
  process.exit(1);
}
