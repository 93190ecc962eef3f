import { readFileSync, writeFileSync } from 'node:fs';
import type { Browser, Page, TestInfo } from '@playwright/test';
import {
  agentPid,
  callApi,
  env,
  expect,
  expectAccessible,
  expectNoMisses,
  LAPTOP,
  misses,
  PHONE,
  produceAtOnce,
  putLoad,
  RUN_ID,
  tabTo,
  test,
  watchRequests,
} from './fixtures';
import { CloudAccountsPage, CreateWizard, InstanceDetailPage, LoginPage, type WizardSpec } from './pages';

// One story, in order: an editor connects an account, creates, watches, scales and deletes an instance; a broker
// falls silent and comes back, the API goes away and comes back, a viewer, a phone and a keyboard-only user look at
// it while it exists.
test.describe.configure({ mode: 'serial' });

// The customer's role and network in LocalStack, onboarded by run.sh with the template the API serves.
const accountName = `e2e-acct-${RUN_ID}`;
const spec: WizardSpec = {
  name: `e2e-${RUN_ID}`,
  account: accountName,
  vpcId: env('E2E_VPC_ID'),
  subnets: env('E2E_SUBNETS').split(','),
  aku: 6,
  fsxThroughput: 768,
  fsxCount: 1,
};
const zones = ['us-east-1a', 'us-east-1b', 'us-east-1c'];
let instanceUrl = '';
let adminPassword = '';
let caPath = '';
let page: Page;
const seen = misses();

interface CostLine {
  item: string;
  quantity: number;
  unit: string;
  monthlyUsd: number;
}
interface CostEstimate {
  diskless: { lines: CostLine[]; totalMonthlyUsd: number };
  serviceFee: CostLine;
  selfManagedKafka: { lines: CostLine[]; totalMonthlyUsd: number };
  savingsPercent: number;
  savingsPercentWithServiceFee: number;
}

/** A figure as the console shows it ("$1,234", "91,928,672 requests", "86.67%"), as a number. */
async function shown(target: Page, testId: string): Promise<number> {
  return Number((await target.getByTestId(testId).innerText()).replace(/[^0-9.]/g, ''));
}

/** The figure shown under `testId` is `value` as the console rounds it: to `decimals` places. */
async function expectShown(target: Page, testId: string, value: number, decimals = 0) {
  expect(Math.abs((await shown(target, testId)) - value), `${testId} shows ${value}`).toBeLessThanOrEqual(0.5 / 10 ** decimals + 1e-9);
}

/** The figures the review shows that any box that clips them cuts off, or that lie past the window's right edge. */
function clippedFigures(target: Page): Promise<string[]> {
  return target.evaluate(() => {
    const cells = document.querySelectorAll(
      '[data-testid="estimate"] [data-testid$="-quantity"], [data-testid="estimate"] [data-testid$="-monthly"], [data-testid="plan"] td',
    );
    const clipped: string[] = [];
    for (const cell of cells) {
      const box = cell.getBoundingClientRect();
      let cut = box.right > window.innerWidth + 1;
      for (let parent = cell.parentElement; parent && !cut; parent = parent.parentElement) {
        if (getComputedStyle(parent).overflowX === 'visible') continue;
        const frame = parent.getBoundingClientRect();
        cut = box.left < frame.left - 1 || box.right > frame.right + 1;
      }
      if (cut) clipped.push(cell.textContent ?? '');
    }
    return clipped;
  });
}

const screenshot = (target: Page, testInfo: TestInfo, name: string) =>
  target.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  page = await (await browser.newContext({ viewport: LAPTOP })).newPage();
  watchRequests(page, seen);
});

test.afterAll(async () => {
  await page.context().close();
  expectNoMisses(seen);
});

test('an editor signs in on Keycloak and connects a cloud account', async () => {
  await new LoginPage(page).signIn('acme-editor');
  await expect(page).toHaveTitle('Instances — Keel');
  // The console is served as a production server serves it: compressed, and cached for good under hashed names.
  const entry = await page.locator('script[type="module"][src^="/assets/"]').getAttribute('src');
  const served = await page.request.get(entry ?? '', { headers: { 'Accept-Encoding': 'br, gzip' } });
  expect(served.headers()['content-encoding']).toBe('br');
  expect(served.headers()['cache-control']).toContain('immutable');
  await expectAccessible(page, 'instances');
  const accounts = new CloudAccountsPage(page);
  await accounts.open();
  await expect(page).toHaveTitle('Cloud accounts — Keel');
  await expectAccessible(page, 'cloud accounts');
  await accounts.connect(accountName, env('E2E_ROLE_ARN'), 'us-east-1');
  await expectAccessible(page, 'connect cloud account');
  await accounts.submit();
  await expect(accounts.row(accountName)).toBeVisible();
  await expect(page.getByTestId(`account-status-${accountName}`), 'registration verifies the role').toHaveAttribute(
    'data-state',
    'VERIFIED',
  );
});

test('creates a 3-zone FSWAL instance of 6 AKU with 1 × 768 MBps through the wizard', async ({}, testInfo) => {
  const wizard = new CreateWizard(page);
  await wizard.open();
  await expect(page).toHaveTitle('Create instance — Instances — Keel');

  await test.step('basics', async () => {
    await wizard.fillBasics(spec);
    await expectAccessible(page, 'wizard: basics');
    await screenshot(page, testInfo, 'wizard-1280-1-basics');
    await wizard.next();
  });
  await test.step('network: each zone offers only its own subnets', async () => {
    await expect(wizard.step('network')).toBeVisible();
    await wizard.fillNetwork(spec);
    for (const [i, zone] of zones.entries()) {
      await expect(page.getByTestId(`wizard-az-${i}`), 'choosing a subnet never moves its zone').toContainText(zone);
      const offered = await wizard.choices(`wizard-subnet-${i}`);
      expect(offered, `zone ${i + 1} offers only the subnet in ${zone}`).toEqual([expect.stringContaining(spec.subnets[i])]);
      // Zones the other rows hold are not offered again.
      expect(await wizard.choices(`wizard-az-${i}`)).toEqual([expect.stringContaining(zone)]);
    }
    await expectAccessible(page, 'wizard: network');
    await screenshot(page, testInfo, 'wizard-1280-2-network');
    await wizard.next();
  });
  await test.step('storage and capacity', async () => {
    await expect(wizard.step('storage')).toBeVisible();
    await wizard.fillStorage(spec);
    await expect(page.getByTestId('capacity-write')).toHaveText('120 MiB/s');
    await expect(page.getByTestId('capacity-partitions')).toHaveText('6,750');
    await expect(page.getByTestId('fsx-capacity')).toHaveAttribute('data-fits', 'true');
    await expectAccessible(page, 'wizard: storage');
    await screenshot(page, testInfo, 'wizard-1280-3-storage');
    await wizard.next();
  });
  await test.step('review: the plan, and the estimate the API gives for the same spec, all in view at 1280 px', async () => {
    await expect(wizard.step('review')).toBeVisible();
    await expect(page.getByTestId('review-fsx')).toHaveText('1 × 768 MBps');
    const plan = page.getByTestId('plan');
    await expect(page.getByTestId('plan-summary')).toContainText('to create');
    for (const resource of ['s3-gateway-endpoint', 'data-bucket', 'broker-role', 'security-group', 'wal-fs-0', 'wal-svm-0', 'launch-template', 'broker-5']) {
      await expect(plan).toContainText(resource);
    }

    const priced = await callApi<CostEstimate>(page, 'POST', '/estimates', {
      region: 'us-east-1',
      zones: 3,
      wal: { type: 'FSWAL' },
      aku: spec.aku,
      fsx: { throughputMBps: spec.fsxThroughput, count: spec.fsxCount },
    });
    await expect(page.getByTestId('estimate-diskless-total')).toBeVisible();
    const fee = priced.serviceFee;
    expect(fee.quantity, 'the fee is the month’s AKU-hours').toBe(spec.aku * 730);
    await expectShown(page, 'estimate-keel-total', priced.diskless.totalMonthlyUsd + fee.monthlyUsd);
    await expectShown(page, 'estimate-kafka-total', priced.selfManagedKafka.totalMonthlyUsd);
    expect(await shown(page, 'estimate-savings')).toBe(priced.savingsPercentWithServiceFee);
    expect(await shown(page, 'estimate-savings-cloud')).toBe(priced.savingsPercent);
    await expectShown(page, 'estimate-diskless-cloud', priced.diskless.totalMonthlyUsd);
    await expectShown(page, 'estimate-fee', fee.monthlyUsd);
    for (const [side, lines] of [
      ['diskless', [...priced.diskless.lines, fee]],
      ['kafka', priced.selfManagedKafka.lines],
    ] as const) {
      for (const line of lines) {
        await expectShown(page, `estimate-${side}-${line.item}-monthly`, line.monthlyUsd);
        // A bill's quantities: whole from 10 up (and for what is counted), two decimals below.
        await expectShown(page, `estimate-${side}-${line.item}-quantity`, line.quantity, line.quantity >= 10 ? 0 : 2);
      }
    }
    expect(await clippedFigures(page), 'figures cut off at 1280 px').toEqual([]);
    await expectAccessible(page, 'wizard: review');
    await screenshot(page, testInfo, 'wizard-1280-4-review');
    await wizard.create();
  });

  await page.waitForURL(/\/instances\/[0-9a-f-]{36}$/);
  instanceUrl = page.url();
  await expect(page.getByTestId('instance-name')).toHaveText(spec.name);
  // The default admin's password, shown this once: the load below connects with it.
  adminPassword = (await page.getByTestId('admin-credentials').getByTestId('secret-password').innerText()).trim();
  expect(adminPassword.length).toBeGreaterThanOrEqual(32);
});

test('the instance reaches RUNNING with a bootstrap endpoint a client produces to at once, and the creation notice ends saying so', async ({}, testInfo) => {
  const detail = new InstanceDetailPage(page);
  await detail.waitForState('RUNNING');
  // Green in the console: a client given the bootstrap servers it shows and the admin's credentials produces now.
  const shownBootstrap = (await page.getByTestId('detail-bootstrap').innerText()).match(/127\.0\.0\.1:\d+/g) ?? [];
  expect(shownBootstrap).toHaveLength(6);
  await detail.tab('Connect');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-ca').click()]);
  caPath = testInfo.outputPath(download.suggestedFilename());
  await download.saveAs(caPath);
  await produceAtOnce(shownBootstrap.join(','), 'admin', adminPassword, readFileSync(caPath, 'utf8'), `at-once-${RUN_ID}`);
  await detail.tab('Overview');
  await expect(page).toHaveTitle(`${spec.name} — Instances — Keel`);
  const notices = page.getByTestId('notifications');
  await expect(notices).toContainText(`Instance ${spec.name} is running.`, { timeout: 30_000 });
  await expect(notices).not.toContainText(`Creating instance ${spec.name}`);
  await expect(page.getByTestId('detail-bootstrap')).toContainText(/:\d+/);
  await expect(page.getByTestId('detail-cloud-account'), 'the account by name, linked').toHaveText(accountName);
  await expect(page.getByTestId('detail-cloud-account')).toHaveAttribute('href', '/cloud-accounts');
  await screenshot(page, testInfo, 'detail-1280');
  await expect(page.getByTestId('detail-fsx')).toHaveText('1 × 768 MBps');
  await expectAccessible(page, 'instance overview');
  await detail.tab('Brokers');
  await expect(page.getByTestId('brokers-table')).toBeVisible();
  await expectAccessible(page, 'instance brokers');
  await detail.tab('Operations');
  await expect(page.getByTestId('operation-state-CREATE')).toHaveAttribute('data-state', 'SUCCEEDED');
  await expectAccessible(page, 'instance operations');
});

test('its brokers come up and the metrics show the load put on them', async ({}, testInfo) => {
  test.setTimeout(360_000);
  const detail = new InstanceDetailPage(page);
  // Running (the create's operation ended once every broker served with the instance's credentials): every broker
  // is healthy now, not in a while.
  await expect(detail.state()).toHaveText('Running');
  await detail.tab('Brokers');
  for (let node = 0; node < 6; node++) {
    await expect(page.getByTestId(`broker-health-${node}`)).toHaveAttribute('data-state', 'HEALTHY', { timeout: 10_000 });
  }
  await expectAccessible(page, 'instance brokers with health');
  await detail.tab('Overview');
  const bootstrap = page.getByTestId('detail-bootstrap');
  await expect(bootstrap).toContainText('127.0.0.1:');
  const addresses = ((await bootstrap.innerText()).match(/127\.0\.0\.1:\d+/g) ?? []).join(',');
  // As a customer would: the admin's credentials and the CA the Connect tab downloaded, in a client.properties.
  const properties = testInfo.outputPath('client.properties');
  writeFileSync(
    properties,
    [
      'security.protocol=SASL_SSL',
      'sasl.mechanism=SCRAM-SHA-512',
      `sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="admin" password="${adminPassword}";`,
      'ssl.truststore.type=PEM',
      `ssl.truststore.location=${caPath}`,
    ].join('\n'),
  );
  const figures = putLoad(addresses, 30, properties);
  expect(figures).toContain('errors 0');

  await detail.tab('Metrics');
  await expect(page.getByTestId('metrics-chart-bytes')).toBeVisible();
  // 300 messages/s of 1 KiB went in: the chart's peak of bytes in is that load, not merely "some data".
  const bytesIn = page.getByTestId('metrics-peak-bytesInPerSec');
  await expect(async () => expect(Number(await bytesIn.getAttribute('data-value'))).toBeGreaterThan(100 * 1024)).toPass({
    timeout: 60_000,
  });
  await expect(page.getByTestId('metrics-peak-produceRequestsPerSec')).not.toHaveAttribute('data-value', '0');
  await expectAccessible(page, 'instance metrics');
  await screenshot(page, testInfo, 'detail-1280-metrics');
});

test('a broker whose agent falls silent shows the instance as not reporting, replaces nothing, until it reports again', async ({}, testInfo) => {
  test.setTimeout(300_000);
  const detail = new InstanceDetailPage(page);
  await detail.tab('Overview');
  const instanceId = instanceUrl.split('/').pop() ?? '';
  // The agent of broker 0 stops (as a hung machine would): its broker keeps serving, but nothing reports on it.
  const agent = agentPid(instanceId, 0);
  process.kill(agent, 'SIGSTOP');
  try {
    await expect(detail.state()).toHaveAttribute('data-health', 'silent', { timeout: 90_000 });
    await expect(detail.state()).toHaveText('Running — broker agents not reporting');
    await expect(page.getByTestId('instance-health-message')).toContainText('The agent of broker 0 has not reported since');
    await expect(page.getByTestId('instance-health-message')).toContainText("never for its agent's silence alone");
    await expectAccessible(page, 'instance whose broker agent is silent');
    await screenshot(page, testInfo, 'detail-1280-silent');
    await page.getByTestId('instance-health-link').click();
    await expect(page.getByTestId('broker-health-0')).toHaveAttribute('data-state', 'UNHEALTHY');
    await page.goto('/instances');
    await expect(page.getByTestId(`instance-state-${spec.name}`)).toHaveText('Running — broker agents not reporting');
  } finally {
    process.kill(agent, 'SIGCONT');
  }
  await page.goto(instanceUrl);
  await expect(detail.state()).toHaveText('Running', { timeout: 120_000 });
  await expect(detail.state()).not.toHaveAttribute('data-health', /.*/);
});

test('with the API unreachable the update dialog says so once and blocks Apply; back, it scales to 9 AKU', async () => {
  const detail = new InstanceDetailPage(page);
  await detail.tab('Overview');
  await detail.openScale();
  await detail.setAku(10);
  await expect(page.getByTestId('plan')).toContainText('broker-8');
  const apply = page.getByTestId('update-aku-apply');
  await expect(apply).toBeEnabled();

  await page.route('**/api/v1/**', (route) => route.abort('connectionrefused'));
  await detail.setAku(9);
  const failure = page.getByTestId('update-load-error');
  await expect(failure).toContainText('The control plane cannot be reached', { timeout: 30_000 });
  await expect(page.getByTestId('update-aku-modal').getByText(/cannot be reached/)).toHaveCount(1);
  await expect(apply).toBeDisabled();
  await expectAccessible(page, 'update dialog with the API unreachable');

  await page.unroute('**/api/v1/**');
  await page.getByTestId('update-load-error-retry').click();
  await expect(failure).toHaveCount(0, { timeout: 30_000 });
  await expect(page.getByTestId('new-capacity-write')).toHaveText('180 MiB/s');
  await expect(page.getByTestId('new-capacity-requests')).toHaveText('7,200 /s');
  await expect(page.getByTestId('current-capacity-write')).toHaveText('120 MiB/s');
  await expect(page.getByTestId('plan')).toContainText('broker-7');
  await expect(apply).toBeEnabled();
  await expectAccessible(page, 'update AKU modal');
  await detail.apply();
  await expect(page.getByTestId('operation-type-UPDATE')).toBeVisible();
  await expect(page.getByTestId('operation-state-UPDATE')).toHaveAttribute('data-state', 'SUCCEEDED', { timeout: 90_000 });
  await detail.waitForState('RUNNING');
  await expect(page.getByTestId('notifications')).toContainText(`${spec.name} is updated.`, { timeout: 30_000 });
  await detail.tab('Overview');
  await expect(page.getByTestId('detail-aku')).toHaveText('9');
  await expect(page.getByTestId('detail-capacity-write')).toHaveText('180 MiB/s');

  // Repair on request starts from what it would change, read from the account.
  await detail.openRepair();
  await expect(page.getByTestId('plan')).toContainText(/No changes|to create/, { timeout: 30_000 });
  await expectAccessible(page, 'repair modal');
  await page.getByTestId('repair-instance-modal').getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('repair-instance-modal')).toBeHidden();
});

test('billing shows the AKU-hours the instance has run', async ({}, testInfo) => {
  const billing = page.getByRole('link', { name: 'Billing' }).first();
  if (!(await billing.isVisible())) await page.getByRole('button', { name: 'Open navigation' }).click();
  await billing.click();
  await expect(page).toHaveTitle('Billing — Keel');
  const hours = page.getByTestId(`billing-aku-hours-${spec.name}`);
  await expect(hours).toBeVisible();
  expect(Number((await hours.innerText()).replace(/,/g, ''))).toBeGreaterThan(0);
  await expect(page.getByTestId('billing-table')).toContainText(/6 AKU, .* – .*9 AKU, .* – now/);
  await expectAccessible(page, 'billing');
  await screenshot(page, testInfo, 'billing');
});

test('a viewer reads every page, with no change button anywhere', async ({ browser }) => {
  const context = await browser.newContext({ viewport: LAPTOP });
  const viewer = await context.newPage();
  watchRequests(viewer, seen);
  await new LoginPage(viewer).signIn('acme-viewer');
  await expect(viewer.getByTestId(`instance-link-${spec.name}`)).toBeVisible();
  await expect(viewer.getByTestId('create-instance')).toHaveCount(0);
  await expectAccessible(viewer, 'instances, as a viewer');
  await viewer.goto(instanceUrl);
  await expect(viewer.getByTestId('instance-name')).toHaveText(spec.name);
  await expect(viewer.getByTestId('update-aku')).toHaveCount(0);
  await expect(viewer.getByTestId('repair-instance')).toHaveCount(0);
  await expect(viewer.getByTestId('delete-instance')).toHaveCount(0);
  await expectAccessible(viewer, 'instance, as a viewer');
  for (const [link, name] of [
    ['Cloud accounts', 'cloud accounts'],
    ['Billing', 'billing'],
    ['Audit log', 'audit log'],
  ] as const) {
    await viewer.getByRole('link', { name: link }).first().click();
    await expect(viewer).toHaveTitle(`${link} — Keel`);
    await expectAccessible(viewer, `${name}, as a viewer`);
  }
  await viewer.getByRole('link', { name: 'Cloud accounts' }).first().click();
  await expect(viewer.getByTestId(`cloud-account-${accountName}`)).toBeVisible();
  await expect(viewer.getByTestId('connect-cloud-account')).toHaveCount(0);
  await expect(viewer.getByTestId('delete-cloud-account')).toHaveCount(0);
  await viewer.getByRole('link', { name: 'Audit log' }).first().click();
  await expect(viewer.getByTestId('audit-table')).toContainText('instance.update');
  await context.close();
});

test('on a phone (390 × 844) the list, every wizard step and the instance read well and pass axe', async ({ browser }, testInfo) => {
  const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
  const phone = await context.newPage();
  watchRequests(phone, seen);
  await new LoginPage(phone).signIn('acme-editor');
  await expect(phone.getByTestId(`instance-link-${spec.name}`)).toBeVisible();
  await expectAccessible(phone, 'instances on a phone');
  await screenshot(phone, testInfo, 'instances-390');

  await phone.goto('/instances/create');
  const wizard = new CreateWizard(phone);
  await expect(wizard.step('basics')).toBeVisible();
  await wizard.fillBasics({ ...spec, name: `e2e-phone-${RUN_ID}` });
  await expectAccessible(phone, 'wizard: basics on a phone');
  await screenshot(phone, testInfo, 'wizard-390-1-basics');
  await wizard.next();
  await expect(wizard.step('network')).toBeVisible();
  await wizard.fillNetwork(spec);
  await expectAccessible(phone, 'wizard: network on a phone');
  await screenshot(phone, testInfo, 'wizard-390-2-network');
  await wizard.next();
  await expect(wizard.step('storage')).toBeVisible();
  await wizard.fillStorage(spec);
  await expectAccessible(phone, 'wizard: storage on a phone');
  await screenshot(phone, testInfo, 'wizard-390-3-storage');
  await wizard.next();
  await expect(wizard.step('review')).toBeVisible();
  await expect(phone.getByTestId('estimate-diskless-total')).toBeVisible();
  await expectAccessible(phone, 'wizard: review on a phone');
  await screenshot(phone, testInfo, 'wizard-390-4-review');
  await phone.getByRole('button', { name: 'Cancel', exact: true }).click();
  await phone.waitForURL(/\/instances$/);

  await phone.goto(instanceUrl);
  await expect(phone.getByTestId('instance-name')).toHaveText(spec.name);
  await expect(phone.getByTestId('detail-aku')).toHaveText('9');
  await expectAccessible(phone, 'instance on a phone');
  await screenshot(phone, testInfo, 'detail-390');
  await context.close();
});

test('with the keyboard alone, the wizard is filled, passes axe, and shows the API’s refusal on the field', async ({}, testInfo) => {
  // The name is valid by the rules the console checks, but the API refuses it: it is taken.
  await page.goto('/instances');
  await tabTo(page, page.getByTestId('create-instance').first());
  await page.keyboard.press('Enter');
  const wizard = new CreateWizard(page);
  await expect(wizard.step('basics')).toBeVisible();
  await wizard.fillByKeyboard(spec, async (step) => {
    await expectAccessible(page, `wizard by keyboard: ${step}`);
    await screenshot(page, testInfo, `wizard-keyboard-${step}`);
  });
  await expectAccessible(page, 'wizard by keyboard: review');
  await wizard.createByKeyboard();
  await expect(wizard.step('basics')).toBeVisible();
  await expect(wizard.step('basics')).toContainText('already exists');
  await tabTo(page, page.getByRole('button', { name: 'Cancel', exact: true }));
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/instances$/);
});

test('deletes the instance with a typed confirmation, then the cloud account', async () => {
  await page.goto(instanceUrl);
  const detail = new InstanceDetailPage(page);
  await detail.waitForState('RUNNING');
  await detail.delete(spec.name);
  await detail.waitForState('DELETED');
  await expect(page.getByTestId('update-aku')).toBeDisabled();
  const accounts = new CloudAccountsPage(page);
  await accounts.open();
  await accounts.delete(accountName);
});
