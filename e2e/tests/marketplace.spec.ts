import { execFileSync } from 'node:child_process';
import type { Browser, Page } from '@playwright/test';
import {
  connectAccount,
  createSmallInstance,
  deleteInstanceAndAccount,
  env,
  expect,
  expectNoMisses,
  LAPTOP,
  misses,
  RUN_ID,
  test,
  watchRequests,
} from './fixtures';
import { BillingPage, InstanceDetailPage, RegistrationPage } from './pages';

// The money path, in order: a buyer subscribes on AWS Marketplace with a contract of 4 AKU, arrives at the
// registration URL, signs in and links the subscription to acme; the contract holds on scaling; an ended hour is
// metered to AWS exactly as the Billing page's ledger says.
test.describe.configure({ mode: 'serial' });

const PRODUCT = 'keel-local-development';
const ENTITLED_AKU = 4;
const emulator = env('KEEL_MARKETPLACE_ENDPOINT');
const accountName = `e2e-mp-${RUN_ID}`;
const instanceName = `e2e-mp-${RUN_ID}`;
let page: Page;
let buyerAccount = '';
let instanceId = '';
let cloudAccountId = '';
const seen = misses();

interface MeterRecord {
  meteringRecordId: string;
  customerAWSAccountId: string;
  dimension: string;
  quantity: number;
  timestamp: string;
}

/** SQL against this run's own database (keel_e2e, fresh every run). */
function psql(sql: string): string {
  return execFileSync('psql', [env('E2E_DATABASE_URL'), '-v', 'ON_ERROR_STOP=1', '-qAt', '-c', sql], { encoding: 'utf8' }).trim();
}

const ACME_SUBSCRIPTIONS = `SELECT s.id FROM marketplace_subscriptions s JOIN organizations o ON o.id = s.organization_id WHERE o.slug = 'acme'`;

/** acme without a subscription, as the other specs expect it: its subscription's contract would refuse their creates. */
function withoutSubscription() {
  psql(`DELETE FROM marketplace_agreement_events WHERE subscription_id IN (${ACME_SUBSCRIPTIONS});
        DELETE FROM metering_records WHERE subscription_id IN (${ACME_SUBSCRIPTIONS});
        DELETE FROM marketplace_subscriptions WHERE id IN (${ACME_SUBSCRIPTIONS});`);
}

async function emulatorCall<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${emulator}/_emulator/marketplace/${path}`, {
    method,
    body: body === undefined ? undefined : JSON.stringify(body),
    headers: { 'Content-Type': 'application/json' },
  });
  expect(response.ok, `${method} ${path}: ${response.status}`).toBe(true);
  return (await response.json()) as T;
}

/**
 * The most this spec takes from linking the subscription to its metering test, which moves the usage of the hour the
 * subscription began in back by one hour: should an hour end in between, the backend would already have metered the
 * hour the subscription began in, with the minutes it really had.
 */
const LINK_TO_METERING_MS = 5 * 60_000;
const HOUR_MS = 3_600_000;

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  const untilNextHour = HOUR_MS - (Date.now() % HOUR_MS);
  if (untilNextHour < LINK_TO_METERING_MS) {
    test.setTimeout(untilNextHour + 120_000);
    await new Promise((resolve) => setTimeout(resolve, untilNextHour + 10_000));
  }
  withoutSubscription();
  page = await (await browser.newContext({ viewport: LAPTOP })).newPage();
  watchRequests(page, seen);
});

test.afterAll(async () => {
  withoutSubscription();
  await page.context().close();
  expectNoMisses(seen);
});

test('a buyer comes from AWS Marketplace, signs in, links the subscription to acme, and it turns active', async ({ browser }) => {
  // What AWS Marketplace does when a buyer subscribes: a registration token, with the contract's aku entitlement.
  const minted = await emulatorCall<{ registrationToken: string; customerAWSAccountId: string }>('POST', 'registrations', {
    productCode: PRODUCT,
    entitlements: [{ dimension: 'aku', value: ENTITLED_AKU }],
  });
  buyerAccount = minted.customerAWSAccountId;
  const registration = new RegistrationPage(page);
  await registration.arriveFromMarketplace(`${env('E2E_BACKEND_URL')}/marketplace/register`, minted.registrationToken);
  await registration.signIn('acme-admin');
  await expect(registration.account()).toHaveText(buyerAccount);

  // The same address in another browser, even for the same admin, shows nothing of the registration: it is bound to
  // the browser AWS sent (its cookie).
  const otherBrowser = await browser.newContext({ viewport: LAPTOP });
  const elsewhere = new RegistrationPage(await otherBrowser.newPage());
  await elsewhere.open(page.url());
  await elsewhere.signIn('acme-admin');
  await expect(elsewhere.state()).toContainText('This registration was opened in another browser');
  await expect(elsewhere.account()).toHaveCount(0);
  await otherBrowser.close();

  await registration.link();

  const billing = new BillingPage(page);
  await expect(page).toHaveTitle('Billing — Keel');
  // The agreement's events arrive through the queue and its entitlement is read after the link.
  await expect(async () => {
    await billing.open();
    await expect(billing.subscriptionState()).toHaveText('Active', { timeout: 2_000 });
    await expect(page.getByTestId('subscription-entitlement')).toHaveText(`Up to ${ENTITLED_AKU} AKU at once`, { timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
  await expect(page.getByTestId('subscription-account')).toHaveText(buyerAccount);
});

test('the contract refuses a scale past its 4 AKU in the console, with the reason; a scale within it is applied', async () => {
  test.setTimeout(300_000);
  cloudAccountId = await connectAccount(page, accountName);
  instanceId = (await createSmallInstance(page, instanceName, cloudAccountId)).instanceId;
  await page.goto(`/instances/${instanceId}`);
  const detail = new InstanceDetailPage(page);
  await detail.waitForState('RUNNING', 180_000);

  await detail.openScale();
  const dialog = page.getByTestId('update-aku-modal');
  await detail.setAku(ENTITLED_AKU + 1);
  await expect(dialog.getByTestId('update-aku-field')).toContainText(
    `The subscription's contract allows ${ENTITLED_AKU} AKU at once across the organization`,
  );
  await expect(page.getByTestId('update-load-error')).toHaveCount(0);
  await expect(page.getByTestId('update-aku-apply')).toBeDisabled();

  await detail.setAku(ENTITLED_AKU);
  await expect(page.getByTestId('update-load-error')).toHaveCount(0);
  await expect(page.getByTestId('update-aku-apply')).toBeEnabled();
  await detail.apply();
  await expect(page.getByTestId('operation-state-UPDATE')).toHaveAttribute('data-state', 'SUCCEEDED', { timeout: 120_000 });
  await detail.waitForState('RUNNING');
  await detail.tab('Overview');
  await expect(page.getByTestId('detail-aku')).toHaveText(String(ENTITLED_AKU));
});

test('an ended hour goes to AWS once, and the Billing page’s ledger shows the quantity and id AWS received', async () => {
  // Only ended hours are metered, and the subscription and instance are minutes old. As the backend's metering
  // tests do, the subscription's link and the instance's first capacity period are moved back to the start of the
  // previous hour (well inside the 6 hours AWS takes usage for), so that hour is ended, billable, and 3 AKU all through.
  const hour = new Date(
    Number(
      psql(`UPDATE marketplace_subscriptions SET created_at = date_trunc('hour', now()) - interval '1 hour'
              WHERE id IN (${ACME_SUBSCRIPTIONS}) AND ended_at IS NULL;
            UPDATE capacity_periods SET started_at = date_trunc('hour', now()) - interval '1 hour'
              WHERE instance_id = '${instanceId}'
                AND started_at = (SELECT min(started_at) FROM capacity_periods WHERE instance_id = '${instanceId}');
            SELECT extract(epoch FROM date_trunc('hour', now()) - interval '1 hour')::bigint;`),
    ) * 1000,
  );

  let received: MeterRecord | undefined;
  await expect(async () => {
    const { records } = await emulatorCall<{ records: MeterRecord[] }>('GET', `meter-records?productCode=${PRODUCT}`);
    const mine = records.filter((r) => r.customerAWSAccountId === buyerAccount && Date.parse(r.timestamp) === hour.getTime());
    expect(mine, 'AWS received the hour once').toHaveLength(1);
    received = mine[0];
  }).toPass({ timeout: 60_000 });
  expect(received!.dimension).toBe('aku_minutes');
  // At least this instance's 3 AKU all hour (180 AKU-minutes); acme's other instances of this run add theirs.
  expect(received!.quantity).toBeGreaterThanOrEqual(180);

  const billing = new BillingPage(page);
  await billing.open();
  // The page opens on this month's ledger; in a month's first hour the backdated hour is last month's.
  if (hour.getUTCMonth() !== new Date().getUTCMonth()) await billing.showMonthOf(hour);
  const row = billing.ledgerRow(received!.meteringRecordId);
  await expect(row).toHaveCount(1);
  const cells = await row.locator('td, th').allInnerTexts();
  expect(cells.map((c) => c.trim())).toEqual(
    expect.arrayContaining(['aku_minutes', String(received!.quantity), 'Accepted', received!.meteringRecordId]),
  );
});

test('deletes the instance and the cloud account', async () => {
  test.setTimeout(180_000);
  await deleteInstanceAndAccount(page, instanceId, cloudAccountId);
});
