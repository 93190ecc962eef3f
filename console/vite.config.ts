/// <reference types="vitest/config" />
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

export default defineConfig({
  plugins: [react(), runtimeConfig()],
  server: { port: 5173, strictPort: true, proxy: { '/api': apiTarget } },
  preview: { port: 4173, strictPort: true, proxy: { '/api': apiTarget } },
  build: { sourcemap: false, chunkSizeWarningLimit: 2000 },
  test: {
    environment: 'jsdom',
    setupFiles: ['src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    testTimeout: 20_000,
  },
});
