import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Every page fails its test on any request that leaves the machine. */
export const test = base.extend<{ offsite: string[] }>({
  offsite: async ({}, use) => {
    await use([]);
  },
  page: async ({ page, offsite }, use) => {
    watchRequests(page, offsite);
    await use(page);
    expect(offsite, 'requests to non-loopback hosts').toEqual([]);
  },
});

export function watchRequests(page: Page, offsite: string[]) {
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (['data:', 'blob:', 'about:'].includes(url.protocol)) return;
    if (!LOOPBACK.has(url.hostname)) offsite.push(request.url());
  });
}

export { expect };

/** Unique per run, DNS-safe. */
export const RUN_ID = `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`.slice(-8);

/** axe-core on the current page; fails on serious or critical findings. */
export async function expectAccessible(page: Page, name: string) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    bad.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`),
    `axe findings on ${name}`,
  ).toEqual([]);
}

const PERF = fileURLToPath(new URL('../../broker-image/perf/perf', import.meta.url));

/**
 * Puts load on an instance with the project's load tool (OpenMessaging-style producer and consumer) and returns
 * its output; throws when a message was not acknowledged or read back.
 */
export function putLoad(bootstrap: string, seconds: number): string {
  return execFileSync(
    'bash',
    [PERF, '--bootstrap', bootstrap, '--rate', '300', '--message-size', '1024', '--duration', String(seconds), '--report-interval', '5'],
    { encoding: 'utf8', timeout: (seconds + 120) * 1000 },
  );
}
