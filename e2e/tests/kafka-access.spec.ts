import { readFileSync } from 'node:fs';
import type { Browser, Page } from '@playwright/test';
import { Kafka, logLevel, type SASLOptions } from 'kafkajs';
import {
  connectAccount,
  createSmallInstance,
  deleteInstanceAndAccount,
  expect,
  expectAccessible,
  expectNoMisses,
  LAPTOP,
  misses,
  RUN_ID,
  test,
  watchRequests,
} from './fixtures';
import { InstanceDetailPage, KafkaAccessTabs, LoginPage } from './pages';

// A customer's way to a working client: on a running SASL_SSL instance, an editor creates a topic, a user and the
// user's ACLs in the console, copies the client.properties the console shows for that user, downloads the CA, and
// a Kafka client built from nothing but that text and that file produces and consumes over TLS with SCRAM-SHA-512.
test.describe.configure({ mode: 'serial' });

const accountName = `e2e-kafka-${RUN_ID}`;
const instanceName = `e2e-kafka-${RUN_ID}`;
const TOPIC = 'orders';
const GROUP = 'orders-readers';
const USER = 'orders-service';
let page: Page;
let instanceId = '';
let cloudAccountId = '';
let properties = '';
let caPath = '';
const seen = misses();

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  const context = await browser.newContext({ viewport: LAPTOP });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  page = await context.newPage();
  watchRequests(page, seen);
  await new LoginPage(page).signIn('acme-editor');
});

test.afterAll(async () => {
  await page.context().close();
  expectNoMisses(seen);
});

test('a new instance answers its admin credentials once and reaches RUNNING with an encrypted, authenticated listener', async () => {
  test.setTimeout(360_000);
  cloudAccountId = await connectAccount(page, accountName);
  const accepted = await createSmallInstance(page, instanceName, cloudAccountId);
  instanceId = accepted.instanceId;
  expect(accepted.adminCredentials?.username).toBe('admin');
  expect(accepted.adminCredentials?.password.length).toBeGreaterThanOrEqual(32);

  await page.goto(`/instances/${instanceId}`);
  await new InstanceDetailPage(page).waitForState('RUNNING', 300_000);
  await new InstanceDetailPage(page).tab('Connect');
  await expect(page.getByTestId('connect-protocol')).toHaveText('SASL_SSL');
  await expect(page.getByTestId('connect-bootstrap')).toContainText(/:\d+/, { timeout: 120_000 });
  await expectAccessible(page, 'instance connect');
});

test('the editor creates a topic, a user and its ACLs in the console, and copies the user’s client.properties', async () => {
  test.setTimeout(240_000);
  const detail = new InstanceDetailPage(page);
  const access = new KafkaAccessTabs(page);

  await detail.tab('Topics');
  await access.createTopic(TOPIC, 3);
  await access.waitForStatus(`topic-status-${TOPIC}`, 'ACTIVE', 120_000);
  await expectAccessible(page, 'instance topics');

  await detail.tab('Users');
  await access.createUser(USER);
  const shown = page.getByTestId('secret-properties');
  await expect(shown).toContainText(`username="${USER}"`);
  await page.getByTestId('secret-properties-copy').getByRole('button').click();
  properties = await page.evaluate(() => navigator.clipboard.readText());
  expect(properties.trim()).toBe((await shown.innerText()).trim());
  await expectAccessible(page, 'new user’s password');
  await page.getByTestId('one-time-password-done').click();
  // Shown once: once closed, the page no longer holds the password anywhere.
  expect(await page.content()).not.toContain(parse(properties).password);
  await access.waitForStatus(`user-status-${USER}`, 'ACTIVE', 120_000);

  await detail.tab('ACLs');
  for (const acl of [
    { resourceType: 'TOPIC', resourceName: TOPIC, operation: 'WRITE' },
    { resourceType: 'TOPIC', resourceName: TOPIC, operation: 'READ' },
    { resourceType: 'GROUP', resourceName: GROUP, operation: 'READ' },
  ]) {
    await access.createAcl({ principal: `User:${USER}`, ...acl });
  }
  const statuses = page.getByTestId('acls-table').locator('[data-testid^="acl-status-"][data-state]');
  await expect(statuses).toHaveCount(3 + 4 /* the admin's four */);
  await expect(async () => {
    for (const state of await statuses.evaluateAll((els) => els.map((e) => e.getAttribute('data-state')))) expect(state).toBe('ACTIVE');
  }).toPass({ timeout: 120_000 });
  await expectAccessible(page, 'instance ACLs');
});

test('the Connect tab’s CA certificate downloads under the name client.properties expects', async ({}, testInfo) => {
  await new InstanceDetailPage(page).tab('Connect');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-ca').click()]);
  const { truststore } = parse(properties);
  expect(download.suggestedFilename()).toBe(truststore);
  caPath = testInfo.outputPath(download.suggestedFilename());
  await download.saveAs(caPath);
  expect(readFileSync(caPath, 'utf8')).toMatch(/^-----BEGIN CERTIFICATE-----/);
});

test('a client configured from that client.properties and CA produces and consumes on the topic its ACLs allow', async () => {
  test.setTimeout(180_000);
  const kafka = clientFrom(parse(properties), readFileSync(caPath, 'utf8'));
  const values = Array.from({ length: 100 }, (_, i) => `order-${i}`);
  const producer = kafka.producer();
  await producer.connect();
  try {
    await producer.send({ topic: TOPIC, messages: values.map((value) => ({ key: value, value })) });
    // No ACL allows it elsewhere: the same user is refused on another topic.
    await expect(producer.send({ topic: `${TOPIC}-other`, messages: [{ value: 'x' }] })).rejects.toThrow(/authoriz/i);
  } finally {
    await producer.disconnect();
  }

  const consumer = kafka.consumer({ groupId: GROUP });
  const read: string[] = [];
  await consumer.connect();
  try {
    await consumer.subscribe({ topic: TOPIC, fromBeginning: true });
    await consumer.run({ eachMessage: async ({ message }) => void read.push(message.value?.toString() ?? '') });
    await expect.poll(() => read.length, { timeout: 60_000 }).toBe(values.length);
  } finally {
    await consumer.disconnect();
  }
  expect([...read].sort()).toEqual([...values].sort());
});

test('deletes the instance and the cloud account', async () => {
  test.setTimeout(180_000);
  await deleteInstanceAndAccount(page, instanceId, cloudAccountId);
});

interface ClientSettings {
  bootstrapServers: string[];
  securityProtocol: string;
  mechanism: string;
  username: string;
  password: string;
  truststoreType: string;
  truststore: string;
}

/** Java's client.properties, read as a Java client reads it: key=value lines, # comments, the JAAS line's options. */
function parse(text: string): ClientSettings {
  const entries = new Map<string, string>();
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const at = trimmed.indexOf('=');
    entries.set(trimmed.slice(0, at).trim(), trimmed.slice(at + 1).trim());
  }
  const get = (key: string) => {
    const value = entries.get(key);
    if (value === undefined) throw new Error(`client.properties has no ${key}`);
    return value;
  };
  const jaas = get('sasl.jaas.config');
  expect(jaas).toMatch(/^org\.apache\.kafka\.common\.security\.scram\.ScramLoginModule required /);
  const option = (name: string) => {
    const match = new RegExp(`${name}="((?:[^"\\\\]|\\\\.)*)"`).exec(jaas);
    if (!match) throw new Error(`sasl.jaas.config has no ${name}`);
    return match[1].replace(/\\(.)/g, '$1');
  };
  return {
    bootstrapServers: get('bootstrap.servers').split(','),
    securityProtocol: get('security.protocol'),
    mechanism: get('sasl.mechanism'),
    username: option('username'),
    password: option('password'),
    truststoreType: get('ssl.truststore.type'),
    truststore: get('ssl.truststore.location'),
  };
}

/** A KafkaJS client with exactly those settings: TLS verified against the CA (hostnames too), SCRAM-SHA-512. */
function clientFrom(settings: ClientSettings, caPem: string): Kafka {
  expect(settings.securityProtocol).toBe('SASL_SSL');
  expect(settings.mechanism).toBe('SCRAM-SHA-512');
  expect(settings.truststoreType).toBe('PEM');
  const sasl: SASLOptions = { mechanism: 'scram-sha-512', username: settings.username, password: settings.password };
  return new Kafka({
    clientId: 'keel-e2e',
    brokers: settings.bootstrapServers,
    ssl: { ca: [caPem], rejectUnauthorized: true },
    sasl,
    logLevel: logLevel.NOTHING,
    retry: { retries: 5 },
  });
}
