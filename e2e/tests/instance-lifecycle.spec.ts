import type { Browser, Page } from '@playwright/test';
import { expect, expectAccessible, putLoad, RUN_ID, test, watchRequests } from './fixtures';
import { CloudAccountsPage, CreateWizard, InstanceDetailPage, LoginPage, type WizardSpec } from './pages';

// One story, in order: an editor connects an account, creates, scales and deletes an instance;
// a viewer and a rejected spec are checked while the instance exists.
test.describe.configure({ mode: 'serial' });

// The customer's role and network in LocalStack, onboarded by run.sh with the template the API serves.
function customer(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the suite through e2e/run.sh`);
  return value;
}
const accountName = `e2e-acct-${RUN_ID}`;
const spec: WizardSpec = {
  name: `e2e-${RUN_ID}`,
  account: accountName,
  vpcId: customer('E2E_VPC_ID'),
  subnets: customer('E2E_SUBNETS').split(','),
  aku: 6,
  fsxThroughput: 768,
  fsxCount: 1,
};
let instanceUrl = '';
let page: Page;
const offsite: string[] = [];

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  page = await (await browser.newContext()).newPage();
  watchRequests(page, offsite);
});

test.afterAll(async () => {
  await page.context().close();
  expect(offsite, 'requests to non-loopback hosts').toEqual([]);
});

test('an editor signs in on Keycloak and connects a cloud account', async () => {
  await new LoginPage(page).signIn('acme-editor');
  await expectAccessible(page, 'instances');
  const accounts = new CloudAccountsPage(page);
  await accounts.open();
  await expectAccessible(page, 'cloud accounts');
  await accounts.connect(accountName, customer('E2E_ROLE_ARN'), 'us-east-1');
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
  const shot = (name: string) => page.screenshot({ path: testInfo.outputPath(`wizard-${name}.png`), fullPage: true });
  await wizard.open();

  await test.step('basics', async () => {
    await wizard.fillBasics(spec);
    await expectAccessible(page, 'wizard: basics');
    await shot('1-basics');
    await wizard.next();
  });
  await test.step('network', async () => {
    await expect(wizard.step('network')).toBeVisible();
    await wizard.fillNetwork(spec);
    for (const [i, zone] of ['us-east-1a', 'us-east-1b', 'us-east-1c'].entries()) {
      await expect(page.getByTestId(`wizard-az-${i}`).locator('input'), 'a listed subnet brings its zone').toHaveValue(zone);
    }
    await expectAccessible(page, 'wizard: network');
    await shot('2-network');
    await wizard.next();
  });
  await test.step('storage and capacity', async () => {
    await expect(wizard.step('storage')).toBeVisible();
    await wizard.fillStorage(spec);
    await expect(page.getByTestId('capacity-write')).toHaveText('120 MiB/s');
    await expect(page.getByTestId('capacity-partitions')).toHaveText('6,750');
    await expect(page.getByTestId('fsx-capacity')).toHaveAttribute('data-fits', 'true');
    await expectAccessible(page, 'wizard: storage');
    await shot('3-storage');
    await wizard.next();
  });
  await test.step('review with the estimate and the plan', async () => {
    await expect(wizard.step('review')).toBeVisible();
    await expect(page.getByTestId('review-fsx')).toHaveText('1 × 768 MBps');
    const plan = page.getByTestId('plan');
    await expect(page.getByTestId('plan-summary')).toContainText('to create');
    for (const resource of ['data-bucket', 'broker-role', 'security-group', 'wal-fs-0', 'wal-svm-0', 'launch-template', 'broker-5']) {
      await expect(plan).toContainText(resource);
    }
    await expect(page.getByTestId('estimate-savings')).toContainText('%');
    await expect(page.getByTestId('estimate-diskless-total')).toContainText('$');
    await expect(page.getByTestId('estimate-kafka-total')).toContainText('$');
    await expectAccessible(page, 'wizard: review');
    await shot('4-review');
    await wizard.create();
  });

  await page.waitForURL(/\/instances\/[0-9a-f-]{36}$/);
  instanceUrl = page.url();
  await expect(page.getByTestId('instance-name')).toHaveText(spec.name);
});

test('the instance reaches RUNNING with a bootstrap endpoint', async ({}, testInfo) => {
  const detail = new InstanceDetailPage(page);
  await detail.waitForState('RUNNING');
  await expect(page.getByTestId('detail-bootstrap')).toContainText(/:\d+/);
  await page.screenshot({ path: testInfo.outputPath('detail-overview.png'), fullPage: true });
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
  await detail.tab('Overview');
  // The stand-in brokers advertise their loopback listeners once they report; six JVMs take a while on two cores.
  const bootstrap = page.getByTestId('detail-bootstrap');
  await expect(bootstrap).toContainText('127.0.0.1:', { timeout: 240_000 });
  const addresses = ((await bootstrap.innerText()).match(/127\.0\.0\.1:\d+/g) ?? []).join(',');
  const figures = putLoad(addresses, 30);
  expect(figures).toContain('errors 0');

  await detail.tab('Metrics');
  const bytes = page.getByTestId('metrics-chart-bytes');
  await expect(bytes).toBeVisible();
  await expect(bytes).not.toContainText('No data yet', { timeout: 30_000 });
  await expect(page.getByTestId('metrics-chart-requests')).not.toContainText('No data yet');
  await expectAccessible(page, 'instance metrics');
  await page.screenshot({ path: testInfo.outputPath('detail-metrics.png'), fullPage: true });

  await detail.tab('Brokers');
  for (let node = 0; node < 6; node++) {
    await expect(page.getByTestId(`broker-health-${node}`)).toHaveAttribute('data-state', 'HEALTHY');
  }
  await expectAccessible(page, 'instance brokers with health');
});

test('scales to 9 AKU, showing the new capacity and the operation finishing', async () => {
  const detail = new InstanceDetailPage(page);
  await detail.tab('Overview');
  await detail.openScale();
  await detail.setAku(9);
  await expect(page.getByTestId('new-capacity-write')).toHaveText('180 MiB/s');
  await expect(page.getByTestId('new-capacity-requests')).toHaveText('7,200 /s');
  await expect(page.getByTestId('current-capacity-write')).toHaveText('120 MiB/s');
  await expect(page.getByTestId('plan')).toContainText('broker-7');
  await expectAccessible(page, 'update AKU modal');
  await detail.apply();
  await expect(page.getByTestId('operation-type-UPDATE')).toBeVisible();
  await expect(page.getByTestId('operation-state-UPDATE')).toHaveAttribute('data-state', 'SUCCEEDED', { timeout: 90_000 });
  await detail.waitForState('RUNNING');
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
  const hours = page.getByTestId(`billing-aku-hours-${spec.name}`);
  await expect(hours).toBeVisible();
  expect(Number((await hours.innerText()).replace(/,/g, ''))).toBeGreaterThan(0);
  await expect(page.getByTestId('billing-table')).toContainText(/6 AKU, .* – .*9 AKU, .* – now/);
  await expectAccessible(page, 'billing');
  await page.screenshot({ path: testInfo.outputPath('billing.png'), fullPage: true });
});

test('a viewer sees the instance without any change buttons', async ({ browser }) => {
  const context = await browser.newContext();
  const viewer = await context.newPage();
  watchRequests(viewer, offsite);
  await new LoginPage(viewer).signIn('acme-viewer');
  await expect(viewer.getByTestId(`instance-link-${spec.name}`)).toBeVisible();
  await expect(viewer.getByTestId('create-instance')).toHaveCount(0);
  await viewer.goto(instanceUrl);
  await expect(viewer.getByTestId('instance-name')).toHaveText(spec.name);
  await expect(viewer.getByTestId('update-aku')).toHaveCount(0);
  await expect(viewer.getByTestId('repair-instance')).toHaveCount(0);
  await expect(viewer.getByTestId('delete-instance')).toHaveCount(0);
  await viewer.getByRole('link', { name: 'Cloud accounts' }).first().click();
  await expect(viewer.getByTestId(`cloud-account-${accountName}`)).toBeVisible();
  await expect(viewer.getByTestId('connect-cloud-account')).toHaveCount(0);
  await expect(viewer.getByTestId('delete-cloud-account')).toHaveCount(0);
  await viewer.getByRole('link', { name: 'Audit log' }).first().click();
  await expect(viewer.getByTestId('audit-table')).toContainText('instance.update');
  await expectAccessible(viewer, 'audit log');
  await context.close();
});

test('a spec the API rejects shows the field error in the wizard', async () => {
  // The name is valid by the rules the console mirrors, but the API refuses it: it is taken.
  const wizard = new CreateWizard(page);
  await wizard.open();
  await wizard.fillBasics(spec);
  await wizard.next();
  await wizard.fillNetwork(spec);
  await wizard.next();
  await wizard.fillStorage(spec);
  await wizard.next();
  await expect(wizard.step('review')).toBeVisible();
  await wizard.create();
  await expect(wizard.step('basics')).toBeVisible();
  await expect(wizard.step('basics')).toContainText(`already exists`);
  await page.getByRole('button', { name: 'Cancel', exact: true }).click();
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
