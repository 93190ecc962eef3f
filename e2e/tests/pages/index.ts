import { expect, type Page } from '@playwright/test';
import { tabTo } from '../fixtures';

export const PASSWORD = 'keel-demo';

/** Keycloak's own login page (realm byoc). */
export class LoginPage {
  constructor(private readonly page: Page) {}

  async signIn(username: string) {
    await this.page.goto('/instances');
    await this.submit(username);
    await this.page.waitForURL(/\/instances$/);
    // On a phone the menu shows only its icon: its name still says who signed in.
    await expect(this.page.getByRole('button', { name: `${username} (User menu)` })).toBeVisible();
  }

  /** Once the console has sent the browser to Keycloak: the user's credentials, after which Keycloak sends it back. */
  async submit(username: string) {
    await this.page.waitForURL(/\/realms\/byoc\/protocol\/openid-connect\/auth/, { timeout: 30_000 });
    await this.page.locator('#username').fill(username);
    await this.page.locator('#password').fill(PASSWORD);
    await this.page.locator('#kc-login').click();
  }
}

function input(page: Page, testId: string) {
  return page.getByTestId(testId).locator('input');
}

export class CloudAccountsPage {
  constructor(private readonly page: Page) {}

  async open() {
    await this.page.getByRole('link', { name: 'Cloud accounts' }).first().click();
    await expect(this.page.getByTestId('cloud-accounts-table')).toBeVisible();
  }

  async connect(name: string, roleArn: string, region: string) {
    await this.page.getByTestId('connect-cloud-account').first().click();
    await expect(this.page.getByTestId('external-id')).toContainText('keel-');
    await input(this.page, 'connect-name').fill(name);
    await input(this.page, 'connect-account-id').fill(roleArn.split(':')[4]);
    await input(this.page, 'connect-role-arn').fill(roleArn);
    await this.page.getByTestId('connect-regions').locator('button').first().click();
    await this.page.getByRole('option', { name: region, exact: true }).click();
    await this.page.keyboard.press('Escape');
  }

  async submit() {
    await this.page.getByTestId('connect-submit').click();
  }

  row(name: string) {
    return this.page.getByTestId(`cloud-account-${name}`);
  }

  async delete(name: string) {
    await this.page.getByRole('row', { name: new RegExp(name) }).getByRole('radio').check();
    await this.page.getByTestId('delete-cloud-account').click();
    await this.page.getByTestId('delete-cloud-account-confirm').click();
    await expect(this.row(name)).toHaveCount(0);
  }
}

export interface WizardSpec {
  name: string;
  account: string;
  vpcId: string;
  subnets: string[];
  aku: number;
  fsxThroughput: number;
  fsxCount: number;
}

export class CreateWizard {
  constructor(private readonly page: Page) {}

  async open() {
    await this.page.getByRole('link', { name: 'Instances' }).first().click();
    await this.page.getByTestId('create-instance').first().click();
    await expect(this.step('basics')).toBeVisible();
  }

  step(key: 'basics' | 'network' | 'storage' | 'review') {
    return this.page.getByTestId(`wizard-step-${key}`);
  }

  async next() {
    await this.page.getByRole('button', { name: 'Next', exact: true }).click();
  }

  async fillBasics(spec: WizardSpec) {
    await input(this.page, 'wizard-name').fill(spec.name);
    await this.page.getByTestId('wizard-cloud-account').locator('button').first().click();
    await this.page.getByRole('option', { name: new RegExp(`^${spec.account}`) }).click();
    await expect(this.page.getByTestId('wizard-region')).toContainText('us-east-1');
  }

  /** Chooses the VPC and, zone by zone, a subnet the console lists out of the account (not typed ids). */
  async fillNetwork(spec: WizardSpec) {
    await this.page.getByTestId('wizard-zones').getByText('3 zones', { exact: true }).click();
    await this.choose('wizard-vpc', spec.vpcId);
    for (const [i, subnet] of spec.subnets.entries()) {
      await this.choose(`wizard-subnet-${i}`, subnet);
    }
  }

  /** What a picker's dropdown offers, once the account's network is read (not the "Use: <typed>" entry). */
  async choices(testId: string): Promise<string[]> {
    const picker = this.page.getByTestId(testId);
    await picker.locator('input, button').first().click();
    await expect(picker.getByRole('option').first()).toBeVisible();
    const texts = await picker.getByRole('option').allInnerTexts();
    await this.page.keyboard.press('Escape');
    return texts.filter((text) => !text.startsWith('Use: '));
  }

  private async choose(testId: string, id: string) {
    // A tap can land while the dropdown re-renders (seen once on the phone viewport): choose again until it holds.
    await expect(async () => {
      if ((await input(this.page, testId).inputValue()) === id) return;
      await input(this.page, testId).click();
      await this.page.getByTestId(testId).getByRole('option', { name: new RegExp(id) }).click({ timeout: 5_000 });
      await expect(input(this.page, testId)).toHaveValue(id, { timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
  }

  async fillStorage(spec: WizardSpec) {
    await this.page.getByTestId('wizard-wal').locator('input[value="FSWAL"]').check();
    await input(this.page, 'wizard-aku').fill(String(spec.aku));
    await this.page.getByTestId('wizard-fsx-throughput').locator(`input[value="${spec.fsxThroughput}"]`).check();
    await input(this.page, 'wizard-fsx-count').fill(String(spec.fsxCount));
  }

  async create() {
    await this.page.getByRole('button', { name: 'Create instance', exact: true }).click();
  }

  /** The wizard with the keyboard only: Tab to each control, then type, arrows and Enter; never a click. */
  async fillByKeyboard(spec: WizardSpec, afterEachStep: (step: 'basics' | 'network' | 'storage') => Promise<void>) {
    const keys = this.page.keyboard;
    await tabTo(this.page, input(this.page, 'wizard-name'));
    await keys.type(spec.name);
    // The only verified account and its first region are chosen already.
    await expect(this.page.getByTestId('wizard-cloud-account')).toContainText(spec.account);
    await afterEachStep('basics');
    await this.nextByKeyboard();

    await expect(this.step('network')).toBeVisible();
    await tabTo(this.page, input(this.page, 'wizard-vpc'));
    await keys.type(spec.vpcId);
    await keys.press('Escape');
    for (const [i, subnet] of spec.subnets.entries()) {
      const picker = this.page.getByTestId(`wizard-subnet-${i}`);
      await tabTo(this.page, picker.locator('input'));
      await keys.press('ArrowDown');
      await expect(picker.getByRole('option')).toHaveCount(1);
      await keys.press('Enter');
      await expect(picker.locator('input')).toHaveValue(subnet);
    }
    await afterEachStep('network');
    await this.nextByKeyboard();

    await expect(this.step('storage')).toBeVisible();
    await tabTo(this.page, input(this.page, 'wizard-aku'));
    await keys.press('ControlOrMeta+a');
    await keys.type(String(spec.aku));
    const throughput = this.page.getByTestId('wizard-fsx-throughput');
    await tabTo(this.page, throughput);
    for (let i = 0; i < 5 && !(await throughput.locator(`input[value="${spec.fsxThroughput}"]`).isChecked()); i++) {
      await keys.press('ArrowDown');
    }
    await expect(throughput.locator(`input[value="${spec.fsxThroughput}"]`)).toBeChecked();
    await expect(input(this.page, 'wizard-fsx-count')).toHaveValue(String(spec.fsxCount));
    await afterEachStep('storage');
    await this.nextByKeyboard();
    await expect(this.step('review')).toBeVisible();
  }

  async nextByKeyboard() {
    await tabTo(this.page, this.page.getByRole('button', { name: 'Next', exact: true }));
    await this.page.keyboard.press('Enter');
  }

  async createByKeyboard() {
    await tabTo(this.page, this.page.getByRole('button', { name: 'Create instance', exact: true }));
    await this.page.keyboard.press('Enter');
  }
}

export class InstanceDetailPage {
  constructor(private readonly page: Page) {}

  state() {
    return this.page.getByTestId('instance-state');
  }

  async waitForState(state: string, timeout = 90_000) {
    await expect(this.state()).toHaveAttribute('data-state', state, { timeout });
  }

  async tab(name: 'Overview' | 'Connect' | 'Users' | 'ACLs' | 'Topics' | 'Metrics' | 'Brokers' | 'Operations') {
    await this.page.getByRole('tab', { name }).click();
  }

  async openScale() {
    await this.page.getByTestId('update-aku').click();
    await expect(this.page.getByTestId('update-aku-modal')).toBeVisible();
  }

  async openRepair() {
    await this.page.getByTestId('repair-instance').click();
    await expect(this.page.getByTestId('repair-instance-modal')).toBeVisible();
  }

  async setAku(aku: number) {
    await input(this.page, 'update-aku-input').fill(String(aku));
  }

  async apply() {
    await this.page.getByTestId('update-aku-apply').click();
  }

  /** Turns off the deletion protection the wizard turned on (confirming), then deletes with the typed name. */
  async delete(name: string) {
    const protection = this.page.getByTestId('deletion-protection-toggle').locator('input');
    await expect(protection).toBeChecked();
    // A click, not uncheck(): the switch stays on until the change is confirmed.
    await protection.click();
    await this.page.getByTestId('deletion-protection-off-confirm').click();
    await expect(protection).not.toBeChecked();
    await this.page.getByTestId('delete-instance').click();
    await expect(this.page.getByTestId('delete-instance-retention')).toContainText('kept, with its data, until');
    await expect(this.page.getByTestId('delete-instance-confirm')).toBeDisabled();
    await input(this.page, 'delete-instance-typed').fill(name);
    await this.page.getByTestId('delete-instance-confirm').click();
  }
}

/**
 * The buyer's way in from AWS Marketplace: AWS posts the registration token from the buyer's browser to the
 * control plane's registration URL, which answers 303 to the console's /register page; signed in there, an admin links.
 */
export class RegistrationPage {
  constructor(private readonly page: Page) {}

  /** A real cross-site form post, as AWS Marketplace's page makes it, so the browser itself follows the 303. */
  async arriveFromMarketplace(registrationUrl: string, token: string) {
    await this.page.setContent(
      `<form method="post" action="${registrationUrl}"><input type="hidden" name="x-amzn-marketplace-token" value="${token}"><button>Set up your account</button></form>`,
    );
    await this.page.getByRole('button', { name: 'Set up your account' }).click();
  }

  /** Keycloak's login, from which the console brings the user back to /register with the reference. */
  async signIn(username: string) {
    await new LoginPage(this.page).submit(username);
    await this.page.waitForURL(/\/register\?reference=[0-9a-f-]{36}$/);
  }

  /** The console's registration page at `url`, as a link someone was sent opens it. */
  async open(url: string) {
    await this.page.goto(url);
  }

  account() {
    return this.page.getByTestId('register-account');
  }

  state() {
    return this.page.getByTestId('register-state');
  }

  async link() {
    await this.page.getByTestId('register-link').click();
    await this.page.waitForURL(/\/billing$/);
  }
}

/** The Billing page: the organization's subscription and the month's metering ledger. */
export class BillingPage {
  constructor(private readonly page: Page) {}

  async open() {
    await this.page.goto('/billing');
    await expect(this.page).toHaveTitle('Billing — Keel');
  }

  subscriptionState() {
    return this.page.getByTestId('subscription-state');
  }

  /** Shows the month (UTC) that holds `at`, by its label in the month picker ("October 2026"). */
  async showMonthOf(at: Date) {
    const label = at.toLocaleString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
    await this.page.getByTestId('billing-month').getByRole('button').click();
    await this.page.getByRole('option', { name: label }).click();
  }

  /** The ledger's row of the record AWS answered with `meteringRecordId`. */
  ledgerRow(meteringRecordId: string) {
    return this.page.getByTestId('ledger-table').getByRole('row').filter({ hasText: meteringRecordId });
  }
}

/** Picks `value` in a Cloudscape select. */
async function choose(page: Page, testId: string, value: string) {
  await page.getByTestId(testId).locator('button').first().click();
  await page.getByRole('option', { name: value, exact: true }).click();
}

/** An instance's Users, ACLs and Topics tabs: what the console asks of the brokers, through the broker agent. */
export class KafkaAccessTabs {
  constructor(private readonly page: Page) {}

  /** The status shown for the item under `testId` (e.g. `user-status-orders`) reaches `state`. */
  async waitForStatus(testId: string, state: string, timeout = 60_000) {
    await expect(this.page.getByTestId(testId)).toHaveAttribute('data-state', state, { timeout });
  }

  async createTopic(name: string, partitions: number) {
    await this.page.getByTestId('create-topic').first().click();
    await input(this.page, 'topic-name').fill(name);
    await input(this.page, 'topic-partitions').fill(String(partitions));
    await this.page.getByTestId('topic-form-submit').click();
    await expect(this.page.getByTestId('topic-form-modal')).toHaveCount(0);
  }

  /** Creates a user; the modal that shows its password once stays open for the caller to read. */
  async createUser(name: string) {
    await this.page.getByTestId('create-user').first().click();
    await input(this.page, 'user-name').fill(name);
    await this.page.getByTestId('create-user-submit').click();
    await expect(this.page.getByTestId('one-time-password')).toBeVisible();
  }

  async createAcl(acl: { principal: string; resourceType: string; resourceName: string; operation: string }) {
    await this.page.getByTestId('create-acl').first().click();
    await input(this.page, 'acl-principal').fill(acl.principal);
    await this.page.getByTestId('acl-resource-type').getByRole('button', { name: acl.resourceType, exact: true }).click();
    await input(this.page, 'acl-resource-name').fill(acl.resourceName);
    await choose(this.page, 'acl-operation', acl.operation);
    await this.page.getByTestId('create-acl-submit').click();
    await expect(this.page.getByTestId('create-acl-modal')).toHaveCount(0);
  }
}
