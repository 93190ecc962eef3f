import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Locator, type Page } from '@playwright/test';
import { Kafka, logLevel } from 'kafkajs';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** What a page did wrong on the way: requests that left the machine, and the console's own files it could not find. */
export interface Misses {
  offsite: string[];
  missing: string[];
}

export function misses(): Misses {
  return { offsite: [], missing: [] };
}

/** Every page fails its test on any request that leaves the machine or any 404 for the console's own files. */
export const test = base.extend<{ misses: Misses }>({
  misses: async ({}, use) => {
    await use(misses());
  },
  page: async ({ page, misses }, use) => {
    watchRequests(page, misses);
    await use(page);
    expectNoMisses(misses);
  },
});

export function watchRequests(page: Page, seen: Misses) {
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (['data:', 'blob:', 'about:'].includes(url.protocol)) return;
    if (!LOOPBACK.has(url.hostname)) seen.offsite.push(request.url());
  });
  // The API answers 404 for what does not exist, rightly; the console's own files (a favicon…) must all be there.
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (response.status() === 404 && url.origin === new URL(page.url()).origin && !url.pathname.startsWith('/api/')) {
      seen.missing.push(response.url());
    }
  });
}

export function expectNoMisses(seen: Misses) {
  expect(seen.offsite, 'requests to non-loopback hosts').toEqual([]);
  expect(seen.missing, 'console files answered 404').toEqual([]);
}

/** The viewports the console is checked at: a laptop, and a phone. */
export const LAPTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/** The signed-in user's access token, as the console keeps it (oidc-client-ts, session storage). */
export async function accessToken(page: Page): Promise<string> {
  const token = await page.evaluate(() => {
    const key = Object.keys(sessionStorage).find((k) => k.startsWith('oidc.user:'));
    return key ? (JSON.parse(sessionStorage.getItem(key) ?? '{}') as { access_token?: string }).access_token : undefined;
  });
  if (!token) throw new Error('no signed-in user in this page');
  return token;
}

/** Calls the API as the page's user, through the console's own origin (as the console does); `status` is the answer expected. */
export async function callApi<T>(
  page: Page,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: unknown,
  status = 200,
): Promise<T> {
  const response = await page.request.fetch(`/api/v1${path}`, {
    method,
    data: body,
    headers: { Authorization: `Bearer ${await accessToken(page)}`, 'X-Organization': 'acme' },
  });
  expect(response.status(), `${method} ${path}: ${await response.text()}`).toBe(status);
  return (response.status() === 204 ? undefined : await response.json()) as T;
}

/** Moves the focus with Tab until `target` (or something inside it) has it: how a keyboard user gets to a control. */
export async function tabTo(page: Page, target: Locator, presses = 80) {
  for (let i = 0; i < presses; i++) {
    if (await target.evaluate((el) => el === document.activeElement || el.contains(document.activeElement))) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

/** The local runner's brokers: which agent process plays each broker of an instance (e2e/run.sh runs it). */
export function agentPid(instanceId: string, nodeId: number): number {
  const state = process.env.E2E_RUNNER_STATE;
  if (!state) throw new Error('E2E_RUNNER_STATE is not set: run the suite through e2e/run.sh');
  const status = JSON.parse(readFileSync(`${state}/status.json`, 'utf8')) as {
    brokers: { instanceId: string | null; nodeId: number; agentPid: number | null }[];
  };
  const broker = status.brokers.find((b) => b.instanceId === instanceId && b.nodeId === nodeId && b.agentPid !== null);
  if (!broker?.agentPid) throw new Error(`no running agent for node ${nodeId} of ${instanceId}`);
  return broker.agentPid;
}

export { expect };

/** A variable run.sh sets: the customer's role and network it onboarded into LocalStack, the backend's URL… */
export function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the suite through e2e/run.sh`);
  return value;
}

/** Connects the customer's account through the API, with the role run.sh onboarded, and waits until it is verified. */
export async function connectAccount(page: Page, name: string): Promise<string> {
  const roleArn = env('E2E_ROLE_ARN');
  const { id } = await callApi<{ id: string }>(
    page,
    'POST',
    '/cloud-accounts',
    { name, awsAccountId: roleArn.split(':')[4], roleArn, regions: ['us-east-1'] },
    201,
  );
  await expect.poll(async () => (await callApi<{ status: string }>(page, 'GET', `/cloud-accounts/${id}`)).status).toBe('VERIFIED');
  return id;
}

/** The API's answer to a create: its operation's instance, and the default admin's credentials, shown this once. */
export interface CreateAccepted {
  instanceId: string;
  adminCredentials: { username: string; password: string } | null;
}

/** Creates the smallest instance through the API: one zone, S3 WAL, 3 AKU. */
export function createSmallInstance(page: Page, name: string, cloudAccountId: string): Promise<CreateAccepted> {
  return callApi<CreateAccepted>(
    page,
    'POST',
    '/instances',
    {
      name,
      cloudAccountId,
      region: 'us-east-1',
      network: { vpcId: env('E2E_VPC_ID'), subnets: [{ availabilityZone: 'us-east-1a', subnetId: env('E2E_SUBNETS').split(',')[0] }] },
      wal: { type: 'S3' },
      aku: 3,
    },
    202,
  );
}

/** Deletes the instance through the API, waits until it is gone, then deletes its cloud account. */
export async function deleteInstanceAndAccount(page: Page, instanceId: string, cloudAccountId: string) {
  await callApi(page, 'DELETE', `/instances/${instanceId}`, undefined, 202);
  await expect
    .poll(async () => (await callApi<{ state: string }>(page, 'GET', `/instances/${instanceId}`)).state, { timeout: 120_000 })
    .toBe('DELETED');
  await callApi(page, 'DELETE', `/cloud-accounts/${cloudAccountId}`, undefined, 204);
}

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
 * Puts load on an instance with the project's load tool (OpenMessaging-style producer and consumer), its clients
 * configured by the Kafka client properties file {@code commandConfig}, and returns its output; throws when a message
 * was not acknowledged or read back.
 */
export function putLoad(bootstrap: string, seconds: number, commandConfig: string): string {
  return execFileSync(
    'bash',
    [
      PERF, '--bootstrap', bootstrap, '--command-config', commandConfig,
      '--rate', '300', '--message-size', '1024', '--duration', String(seconds), '--report-interval', '5',
    ],
    { encoding: 'utf8', timeout: (seconds + 120) * 1000 },
  );
}

/**
 * What a client can do the moment its instance is RUNNING, with no retry of any kind: every broker of `bootstrap`
 * takes the SCRAM user, a topic is created and a record produced to it.
 */
export async function produceAtOnce(bootstrap: string, username: string, password: string, caPem: string, topic: string) {
  const client = (brokers: string[]) =>
    new Kafka({
      clientId: 'keel-e2e-at-once',
      brokers,
      ssl: { ca: [caPem], rejectUnauthorized: true },
      sasl: { mechanism: 'scram-sha-512', username, password },
      logLevel: logLevel.NOTHING,
      retry: { retries: 0 },
    });
  for (const address of bootstrap.split(',')) {
    const admin = client([address]).admin();
    await admin.connect();
    await admin.disconnect();
  }
  const kafka = client(bootstrap.split(','));
  const admin = kafka.admin();
  await admin.connect();
  try {
    await admin.createTopics({ topics: [{ topic, numPartitions: bootstrap.split(',').length }], waitForLeaders: true });
  } finally {
    await admin.disconnect();
  }
  const producer = kafka.producer();
  await producer.connect();
  try {
    await producer.send({ topic, acks: -1, messages: [{ value: 'produced the moment the instance was running' }] });
  } finally {
    await producer.disconnect();
  }
}
