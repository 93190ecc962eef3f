/// <reference types="vitest/config" />
import { createReadStream, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, normalize, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

// One build serves every environment: the console reads /config.json at start. `vite preview`
// (used by ./dev up and the e2e suite) answers /config.json from these variables when they are
// set, and proxies /api to the backend, so the browser only talks to one origin for the API.
const apiTarget = process.env.KEEL_API_TARGET ?? 'http://localhost:8080';

function runtimeConfig(): Plugin {
  const serve = (server: { middlewares: { use: (path: string, fn: (req: unknown, res: { setHeader: (k: string, v: string) => void; end: (b: string) => void }, next: () => void) => void) => void } }) => {
    server.middlewares.use('/config.json', (_req, res, next) => {
      if (!process.env.KEEL_KEYCLOAK_URL) return next();
      res.setHeader('Content-Type', 'application/json');
      res.setHeader('Cache-Control', 'no-store');
      res.end(
        JSON.stringify({
          apiBaseUrl: process.env.KEEL_CONSOLE_API_BASE ?? '/api/v1',
          keycloakUrl: process.env.KEEL_KEYCLOAK_URL,
          realm: process.env.KEEL_KC_REALM ?? 'byoc',
          clientId: process.env.KEEL_KC_CLIENT ?? 'keel-console',
        }),
      );
    });
  };
  return { name: 'keel-runtime-config', configureServer: serve, configurePreviewServer: serve };
}

const CONTENT_TYPES: Record<string, string> = {
  js: 'text/javascript',
  css: 'text/css',
  svg: 'image/svg+xml',
  json: 'application/json',
};
const COMPRESSIBLE = /\.(js|css|svg|json)$/;
const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;

/**
 * Compressed once, at build time, as a production build does: a `.br` and a `.gz` beside every script and style
 * sheet, for a server to send to browsers that accept them.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'keel-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    writeBundle(_options, bundle) {
      for (const file of Object.keys(bundle).filter((f) => COMPRESSIBLE.test(f))) {
        const content = readFileSync(join(outDir, file));
        writeFileSync(join(outDir, `${file}.br`), brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
        writeFileSync(join(outDir, `${file}.gz`), gzipSync(content, { level: 9 }));
      }
    },
  };
}

/**
 * `vite preview` sends the build as a production server would: the precompressed file a browser accepts (brotli,
 * else gzip), and, since their names carry a content hash, assets cached for good.
 */
function servePrecompressed(): Plugin {
  return {
    name: 'keel-serve-precompressed',
    configurePreviewServer(server) {
      const root = resolve(server.config.root, server.config.build.outDir);
      server.middlewares.use((req, res, next) => {
        const path = normalize(decodeURIComponent((req.url ?? '').split('?')[0]));
        if (!path.startsWith('/assets/') || !COMPRESSIBLE.test(path)) return next();
        const accepted = String(req.headers['accept-encoding'] ?? '');
        const encoding = ENCODINGS.find((e) => accepted.includes(e.name) && existsSync(join(root, path + e.suffix)));
        if (!encoding) return next();
        const file = join(root, path + encoding.suffix);
        res.setHeader('Content-Type', CONTENT_TYPES[path.slice(path.lastIndexOf('.') + 1)]);
        res.setHeader('Content-Encoding', encoding.name);
        res.setHeader('Content-Length', String(statSync(file).size));
        res.setHeader('Vary', 'Accept-Encoding');
        res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
        createReadStream(file).pipe(res);
      });
    },
  };
}

export default defineConfig({
  plugins: [react(), runtimeConfig(), precompress(), servePrecompressed()],
  server: { port: 5173, strictPort: true, proxy: { '/api': apiTarget } },
  preview: { port: 4173, strictPort: true, proxy: { '/api': apiTarget } },
  build: { sourcemap: false, chunkSizeWarningLimit: 2000 },
  test: {
    environment: 'jsdom',
    setupFiles: ['src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    // A focused test (`.only`) would silently skip the rest, here as on CI.
    allowOnly: false,
    testTimeout: 30_000,
  },
});
