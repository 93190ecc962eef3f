import { describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { createKeelClient, call } from '../../api/client';
import type { AccountNetworks } from '../../api/types';
import { account, catalogV1, costEstimate, creationPlan, failedAccount } from '../../test/fixtures';
import { fakeApi, json, renderWithProviders, eventually } from '../../test/render';
import { toCreation, type SpecDraft } from '../specRules';
import { InstanceWizard } from './InstanceWizard';

const estimate = costEstimate();

const valid: SpecDraft = {
  basics: { name: 'orders-prod', cloudAccountId: account.id, region: 'us-east-1', deletionProtection: true },
  network: {
    zones: 3,
    vpcId: 'vpc-0a1b2c3d4e5f67890',
    subnets: [
      { availabilityZone: 'us-east-1a', subnetId: 'subnet-0123456789abcdef0' },
      { availabilityZone: 'us-east-1b', subnetId: 'subnet-0fedcba9876543210' },
      { availabilityZone: 'us-east-1c', subnetId: 'subnet-0a0b0c0d0e0f01234' },
    ],
    s3GatewayEndpoint: 'CREATE',
  },
  storage: { walType: 'FSWAL', aku: '6', fsxThroughput: 768, fsxCount: '1' },
};

/** The account's network: one VPC with subnets in four zones, two of them in us-east-1a. */
const networks: AccountNetworks = {
  region: 'us-east-1',
  vpcs: [
    {
      vpcId: 'vpc-0prod',
      name: 'prod',
      cidrBlock: '10.42.0.0/16',
      isDefault: false,
      subnets: [
        { subnetId: 'subnet-0a1', availabilityZone: 'us-east-1a', cidrBlock: '10.42.1.0/24', name: 'prod-a1' },
        { subnetId: 'subnet-0a2', availabilityZone: 'us-east-1a', cidrBlock: '10.42.2.0/24', name: 'prod-a2' },
        { subnetId: 'subnet-0b', availabilityZone: 'us-east-1b', cidrBlock: '10.42.3.0/24', name: 'prod-b' },
        { subnetId: 'subnet-0c', availabilityZone: 'us-east-1c', cidrBlock: '10.42.4.0/24', name: null },
        { subnetId: 'subnet-0d', availabilityZone: 'us-east-1d', cidrBlock: '10.42.5.0/24', name: 'prod-d' },
      ],
    },
  ],
};

const routes = { 'POST /estimates': estimate, 'POST /instances/plan': creationPlan };

function wizard() {
  return createWrapper(document.body).findWizard()!;
}
function next() {
  act(() => wizard().findPrimaryButton().click());
}
function input(testId: string) {
  return createWrapper(document.body).findInput(`[data-testid="${testId}"]`)!;
}
function suggest(testId: string) {
  return createWrapper(document.body).findAutosuggest(`[data-testid="${testId}"]`)!;
}
function select(testId: string) {
  return createWrapper(document.body).findSelect(`[data-testid="${testId}"]`)!;
}
/** Fills the wizard and submits it from review; the API refuses the create with `problem`, at its status. */
async function createRefused(problem: { status: number }) {
  const api = fakeApi({ ...routes, 'POST /instances': () => json(problem, problem.status) });
  const client = createKeelClient({ baseUrl: 'http://console.test/api/v1', getAccessToken: () => 't', getOrganization: () => 'acme', fetch: api.fetch });
  renderWithProviders(
    <InstanceWizard
      catalog={catalogV1}
      accounts={[account]}
      initial={valid}
      onCancel={vi.fn()}
      onSubmit={async (body) => call(client.POST('/instances', { body }))}
    />,
    { api },
  );
  await toReview();
  act(() => wizard().findPrimaryButton().click());
  return api;
}

function fieldError(testId: string) {
  const el = screen.getByTestId(testId);
  const field = createWrapper(document.body)
    .findAllFormFields()
    .find((f) => f.getElement().contains(el));
  return field?.findError()?.getElement().textContent ?? '';
}
const step = (key: string) => screen.findByTestId(`wizard-step-${key}`);
/** What the dropdown of a subnet picker lists, once the account's network is read. */
async function subnetChoices(row: number) {
  const picker = suggest(`wizard-subnet-${row}`);
  act(() => picker.focus());
  await eventually(() => expect(picker.findDropdown().findOptions().length).toBeGreaterThan(0));
  const values = picker.findDropdown().findOptions().map((o) => o.getElement().textContent ?? '');
  act(() => picker.blur());
  return values;
}

/** The wizard with a valid draft, on its review step. */
/** Leaves basics, network and storage as they are, for review. */
async function toReview() {
  next();
  await step('network');
  next();
  await step('storage');
  next();
  await step('review');
}
async function renderAtReview(api: ReturnType<typeof fakeApi>, initial: SpecDraft = valid) {
  renderWithProviders(<InstanceWizard catalog={catalogV1} accounts={[account]} initial={initial} onSubmit={vi.fn()} onCancel={vi.fn()} />, { api });
  await toReview();
}

describe('create-instance wizard', () => {
  it('protects a new instance from deletion unless told not to, and sends what was chosen', async () => {
    const toggle = () => createWrapper(document.body).findToggle('[data-testid="wizard-deletion-protection"]')!.findNativeInput();
    const fresh = renderWithProviders(<InstanceWizard catalog={catalogV1} accounts={[account]} onSubmit={vi.fn()} onCancel={vi.fn()} />, {
      api: fakeApi({}),
    });
    expect(toggle().getElement().checked).toBe(true);
    fresh.unmount();

    const submit = vi.fn(async () => undefined);
    renderWithProviders(<InstanceWizard catalog={catalogV1} accounts={[account]} initial={valid} onSubmit={submit} onCancel={vi.fn()} />, {
      api: fakeApi(routes),
    });
    act(() => toggle().click());
    expect(toggle().getElement().checked).toBe(false);
    await toReview();
    act(() => wizard().findPrimaryButton().click());
    await waitFor(() => expect(submit).toHaveBeenCalledTimes(1));
    expect(submit).toHaveBeenCalledWith(expect.objectContaining({ name: 'orders-prod', deletionProtection: false }));
  });

  it('offers only verified cloud accounts: the others are listed but cannot be chosen', () => {
    const failed = { ...failedAccount, id: 'a2b3c4d5-0000-4000-8000-000000000002', name: 'staging' };
    renderWithProviders(<InstanceWizard catalog={catalogV1} accounts={[account, failed]} onSubmit={vi.fn()} onCancel={vi.fn()} />, {
      api: fakeApi({}),
    });
    act(() => select('wizard-cloud-account').openDropdown());
    const dropdown = select('wizard-cloud-account').findDropdown();
    expect(dropdown.findOptions().map((o) => o.getElement().textContent)).toEqual([
      expect.stringContaining(account.name),
      expect.stringContaining('staging'),
    ]);
    expect(dropdown.findDisabledOptions().map((o) => o.getElement().textContent)).toEqual([expect.stringContaining('staging')]);
  });

  it('offers each zone only its own subnets, hides those other zones took, and never moves a row to another zone', async () => {
    const api = fakeApi({ ...routes, [`GET /cloud-accounts/${account.id}/networks`]: networks });
    const blank = { ...valid.network, vpcId: '', subnets: valid.network.subnets.map((s) => ({ ...s, subnetId: '' })) };
    renderWithProviders(<InstanceWizard catalog={catalogV1} accounts={[account]} initial={{ ...valid, network: blank }} onSubmit={vi.fn()} onCancel={vi.fn()} />, {
      api,
    });
    next();
    await step('network');
    const vpc = suggest('wizard-vpc');
    act(() => vpc.focus());
    await eventually(() => expect(vpc.findDropdown().findOptions().map((o) => o.getElement().textContent)).toEqual([expect.stringContaining('prod')]));
    act(() => vpc.selectSuggestion(1));
    expect(vpc.findNativeInput().getElement().value).toBe('vpc-0prod');

    expect(await subnetChoices(0)).toEqual([expect.stringContaining('subnet-0a1'), expect.stringContaining('subnet-0a2')]);
    expect(await subnetChoices(1)).toEqual([expect.stringContaining('subnet-0b')]);
    act(() => suggest('wizard-subnet-0').focus());
    act(() => suggest('wizard-subnet-0').selectSuggestion(2));
    expect(suggest('wizard-subnet-0').findNativeInput().getElement().value).toBe('subnet-0a2');
    expect(select('wizard-az-0').findTrigger().getElement().textContent).toBe('us-east-1a');

    // Zone 3 moves to us-east-1d: zones held by other rows are not offered, and its subnet list follows the zone.
    act(() => select('wizard-az-2').openDropdown());
    expect(select('wizard-az-2').findDropdown().findOptions().map((o) => o.getElement().textContent)).toEqual(['us-east-1c', 'us-east-1d']);
    act(() => select('wizard-az-2').selectOptionByValue('us-east-1d'));
    expect(await subnetChoices(2)).toEqual([expect.stringContaining('subnet-0d')]);

    // Zone 2 moved to us-east-1a: only the us-east-1a subnet zone 1 did not take.
    act(() => select('wizard-az-1').openDropdown());
    expect(select('wizard-az-1').findDropdown().findOptions().map((o) => o.getElement().textContent)).toEqual(['us-east-1b', 'us-east-1c']);
    act(() => select('wizard-az-1').selectOptionByValue('us-east-1c'));
    expect(await subnetChoices(1)).toEqual([expect.stringContaining('subnet-0c')]);
  });

  it('says in words which zone lacks a subnet, and names zones in the API’s messages', async () => {
    const refusal = {
      type: 'https://keel.dev/problems/validation-failed',
      title: 'Request is invalid',
      status: 400,
      errors: [{ field: 'network.subnets[2].availabilityZone', message: 'zone us-east-1b already holds network.subnets[1]; each subnet must be in a distinct zone' }],
    };
    const api = fakeApi({ ...routes, 'POST /instances/plan': () => json(refusal, 400) });
    const missing = { ...valid.network, subnets: valid.network.subnets.map((s, i) => (i === 1 ? { ...s, subnetId: '' } : s)) };
    renderWithProviders(<InstanceWizard catalog={catalogV1} accounts={[account]} initial={{ ...valid, network: missing }} onSubmit={vi.fn()} onCancel={vi.fn()} />, {
      api,
    });
    // Basics pass: the API's objection is to a later step.
    next();
    await step('network');
    next();
    expect(fieldError('wizard-subnet-1')).toBe('Zone 2 needs a subnet in us-east-1b');

    act(() => suggest('wizard-subnet-1').setInputValue('subnet-0fedcba9876543210'));
    next();
    await eventually(() => expect(fieldError('wizard-az-2')).toBe('zone us-east-1b already holds zone 2; each subnet must be in a distinct zone'));
    expect(screen.getByTestId('wizard-step-network')).toBeTruthy();
  });

  it('moves on only when the step passes its own checks and the API’s, and back freely', async () => {
    const refusal = {
      type: 'https://keel.dev/problems/validation-failed',
      title: 'Request is invalid',
      status: 400,
      errors: [
        { field: 'name', message: 'must be 3 to 64 characters of lowercase letters, digits and hyphens' },
        { field: 'network.vpcId', message: 'must be a VPC id such as vpc-0a1b2c3d4e5f60789' },
      ],
    };
    let answer: () => Response = () => json(refusal, 400);
    const api = fakeApi({ ...routes, 'POST /instances/plan': () => answer() });
    renderWithProviders(<InstanceWizard catalog={catalogV1} accounts={[account]} onSubmit={vi.fn()} onCancel={vi.fn()} />, { api });
    expect(screen.getByTestId('wizard-step-basics')).toBeTruthy();

    next();
    expect(fieldError('wizard-name')).toBe('Enter a name');
    expect(api.calls).toHaveLength(0);

    act(() => input('wizard-name').setInputValue('Orders_Prod'));
    next();
    await eventually(() => expect(fieldError('wizard-name')).toContain('must be 3 to 64 characters'));
    expect(screen.getByTestId('wizard-step-basics')).toBeTruthy();
    const checked = await api.calls.at(-1)!.json();
    expect(checked).toMatchObject({ name: 'Orders_Prod', cloudAccountId: account.id, region: 'us-east-1' });

    answer = () => json({ ...refusal, errors: refusal.errors.slice(1) }, 400);
    act(() => input('wizard-name').setInputValue('orders-prod'));
    expect(fieldError('wizard-name')).toBe('');
    next();
    await step('network');
    expect(fieldError('wizard-vpc')).toBe('');

    next();
    expect(fieldError('wizard-vpc')).toBe('Choose a VPC');
    act(() => suggest('wizard-vpc').setInputValue('vpc-0a1b2c3d4e5f67890'));
    valid.network.subnets.forEach((s, i) => act(() => suggest(`wizard-subnet-${i}`).setInputValue(s.subnetId)));
    answer = () => json(creationPlan);
    next();
    await step('storage');
    expect(screen.getByTestId('capacity-write').textContent).toBe('60 MiB/s');

    act(() => wizard().findPreviousButton()!.click());
    expect(screen.getByTestId('wizard-step-network')).toBeTruthy();
    next();
    await step('storage');
    next();
    await step('review');
    expect(screen.getByTestId('review-name').textContent).toBe('orders-prod');
  });

  it('when the API cannot check a step, says so once and retries on request', async () => {
    let reachable = false;
    const api = fakeApi({
      ...routes,
      'POST /instances/plan': () => (reachable ? json(creationPlan) : Promise.reject(new TypeError('Failed to fetch'))),
    });
    renderWithProviders(<InstanceWizard catalog={catalogV1} accounts={[account]} initial={valid} onSubmit={vi.fn()} onCancel={vi.fn()} />, { api });
    next();
    const failure = await screen.findByTestId('wizard-check-failed');
    expect(failure.textContent).toContain('The control plane cannot be reached (Failed to fetch).');
    expect(screen.getAllByTestId('wizard-check-failed')).toHaveLength(1);
    expect(screen.getByTestId('wizard-step-basics')).toBeTruthy();

    reachable = true;
    act(() => createWrapper(failure).findButton()!.click());
    await step('network');
    expect(screen.queryByTestId('wizard-check-failed')).toBeNull();
  });

  it('blocks the storage step when FSx write capacity is short and says the fix once', async () => {
    renderWithProviders(
      <InstanceWizard
        catalog={catalogV1}
        accounts={[account]}
        onSubmit={vi.fn()}
        onCancel={vi.fn()}
        initial={{ ...valid, storage: { ...valid.storage, aku: '20', fsxThroughput: 384 } }}
      />,
      { api: fakeApi(routes) },
    );
    next();
    await step('network');
    next();
    await step('storage');
    expect(screen.getByTestId('fsx-capacity-fix').textContent).toContain('Use 3 × 384 MBps or 1 × 1536 MBps, or lower AKU to 7.');
    next();
    expect(fieldError('wizard-fsx-count')).toContain('20 AKU need 400 MiB/s of WAL write capacity');
    expect(screen.queryByTestId('fsx-capacity-fix')).toBeNull();
    expect(screen.getByTestId('wizard-step-storage').textContent!.match(/or lower AKU to 7/g)).toHaveLength(1);
  });

  it('shows the API’s 400 field errors on the right field and jumps to that step', async () => {
    const problem = {
      type: 'https://keel.dev/problems/validation-failed',
      title: 'Request is invalid',
      status: 400,
      detail: 'network.subnets[1].subnetId: is not in vpc-0a1b2c3d4e5f67890',
      errors: [{ field: 'network.subnets[1].subnetId', message: 'is not in vpc-0a1b2c3d4e5f67890' }],
    };
    const api = await createRefused(problem);
    await step('network');
    expect(fieldError('wizard-subnet-1')).toContain('is not in vpc-0a1b2c3d4e5f67890');
    expect(fieldError('wizard-subnet-0')).not.toContain('is not in');
    const sent = api.calls.find((r) => r.method === 'POST' && r.url.endsWith('/instances'));
    expect(sent).toBeDefined();
  });

  it('shows a missing S3 gateway endpoint the spec requires on the endpoint option', async () => {
    const message = 'No S3 gateway endpoint (com.amazonaws.us-east-1.s3) is on route table rtb-0a1b2c3d4e5f67890 of subnet-0123456789abcdef0';
    const problem = {
      type: 'https://keel.dev/problems/validation-failed',
      title: 'Request is invalid',
      status: 400,
      detail: `network.s3GatewayEndpoint: ${message}`,
      errors: [{ field: 'network.s3GatewayEndpoint', message }],
    };
    await createRefused(problem);
    await step('network');
    expect(fieldError('wizard-s3-endpoint')).toContain('rtb-0a1b2c3d4e5f67890');
    expect(fieldError('wizard-vpc')).not.toContain('S3 gateway endpoint');
  });

  it('shows a 409 name conflict on the name field of the first step', async () => {
    const problem = {
      type: 'https://keel.dev/problems/name-taken',
      title: 'Conflict with the current state',
      status: 409,
      detail: 'An instance named orders-prod already exists in this organization.',
      errors: [{ field: 'name', message: 'An instance named orders-prod already exists in this organization.' }],
    };
    await createRefused(problem);
    await step('basics');
    expect(fieldError('wizard-name')).toContain('already exists');
  });

  it('shows a refusal of the capacity asked (budget, entitlement, trial) on the AKU field, as other field errors', async () => {
    const message =
      'The organization’s budget allows at most 6 AKU per instance (maxAkuPerInstance), and 9 AKU were asked. An admin can raise it with PUT /billing/budget (the Billing page’s Budget).';
    const problem = {
      type: 'https://keel.dev/problems/budget-exceeded',
      title: 'Beyond the organization’s budget',
      status: 409,
      detail: message,
      errors: [{ field: 'aku', message }],
    };
    await createRefused(problem);
    await step('storage');
    expect(fieldError('wizard-aku')).toContain('at most 6 AKU per instance');
  });

  it('shows on review the plan of exactly what Create would send, asked once', async () => {
    const api = fakeApi(routes);
    await renderAtReview(api);
    await waitFor(() => expect(screen.getByTestId('plan-summary').textContent).toBe('(3 to create, 0 to update, 0 to delete)'));
    const plans = api.calls.filter((r) => r.url.endsWith('/instances/plan'));
    // The API is asked once about a draft: the steps that passed it unchanged and the review share its answer.
    expect(plans).toHaveLength(1);
    expect(await plans[0].json()).toEqual(toCreation(valid));
    const rows = createWrapper(screen.getByTestId('plan')).findTable()!.findRows();
    expect(rows.map((r) => r.getElement().textContent)).toEqual([
      expect.stringMatching(/\+ create.*s3-bucket.*data-bucket/),
      expect.stringMatching(/\+ create.*fsx-file-system.*wal-1/),
      expect.stringMatching(/\+ create.*ec2-instance.*broker-1/),
    ]);
    expect(rows[0].find('[data-action]')!.getElement().dataset.action).toBe('CREATE');
    // Nothing exists yet, so there is no Id column to fill with "Not created yet".
    expect(screen.getByTestId('plan').textContent).not.toContain('Not created yet');
  });

  it('prices on review the AWS resources and Keel’s fee, with the savings with and without the fee, quantities as a bill has them', async () => {
    const api = fakeApi({ ...routes, 'POST /estimates': costEstimate(1200, 438) });
    await renderAtReview(api);
    await waitFor(() => expect(screen.getByTestId('estimate-keel-total').textContent).toBe('$1,638'));
    expect(screen.getByTestId('estimate-kafka-total').textContent).toBe('$9,000');
    expect(screen.getByTestId('estimate-savings').textContent).toBe('81.8%');
    expect(screen.getByTestId('estimate-savings-cloud').textContent).toBe('86.67%');
    expect(screen.getByTestId('estimate-diskless-service-fee-quantity').textContent).toBe('4,380 AKU-hours');
    expect(screen.getByTestId('estimate-diskless-service-fee-monthly').textContent).toBe('$438');
    expect(screen.getByTestId('estimate-diskless-s3-api-quantity').textContent).toBe('91,928,672 requests');
    expect(screen.getByTestId('estimate-diskless-cloud').textContent).toBe('AWS resources: $1,200');
    expect(screen.getByTestId('estimate-fee').textContent).toBe('Keel fee: $438');
    expect(screen.getByTestId('estimate-diskless-total').textContent).toBe('Total per month: $1,638');
    const sent = api.calls.find((r) => r.url.endsWith('/estimates'))!;
    const spec = { region: 'us-east-1', zones: 3, wal: { type: 'FSWAL' }, aku: 6, fsx: { throughputMBps: 768, count: 1 } };
    expect(await sent.json()).toEqual({ ...spec, s3GatewayEndpoint: 'CREATE' });
  });

  it('states on review what the estimate assumes, and re-prices the comparison when the user changes an assumption', async () => {
    const reserved = costEstimate();
    reserved.selfManagedKafka.totalMonthlyUsd = 7000;
    reserved.assumptions = [{ ...reserved.assumptions[0], value: 'RESERVED_1_YEAR_NO_UPFRONT', source: 'REQUEST' }];
    const bodies: { assumptions?: Record<string, unknown> }[] = [];
    const api = fakeApi({
      ...routes,
      'POST /estimates': (request: Request) => request.clone().json().then((body: { assumptions?: { purchaseOption?: string } }) => {
        bodies.push(body);
        return json(body.assumptions?.purchaseOption === 'RESERVED_1_YEAR_NO_UPFRONT' ? reserved : estimate);
      }),
    });
    await renderAtReview(api);
    await waitFor(() => expect(screen.getByTestId('assumption-replicationFactor-value').textContent).toBe('3'));
    expect(screen.getByTestId('assumption-replicationFactor-source').textContent).toBe('Cost model');
    expect(screen.getByTestId('assumption-purchaseOption-source').textContent).toBe('Default');
    expect(bodies.at(-1)).not.toHaveProperty('assumptions');
    expect(screen.getByTestId('estimate-kafka-total').textContent).toBe('$9,000');

    const purchase = createWrapper(document.body).findSelect('[data-testid="assumption-purchase-option"]')!;
    act(() => purchase.openDropdown());
    act(() => purchase.selectOptionByValue('RESERVED_1_YEAR_NO_UPFRONT'));
    await waitFor(() => expect(screen.getByTestId('estimate-kafka-total').textContent).toBe('$7,000'));
    expect(screen.getByTestId('assumption-purchaseOption-source').textContent).toBe('Your choice');
    expect(bodies.at(-1)!.assumptions).toEqual({ purchaseOption: 'RESERVED_1_YEAR_NO_UPFRONT' });

    act(() => createWrapper(document.body).findToggle('[data-testid="assumption-follower-fetching"]')!.findNativeInput().click());
    await waitFor(() => expect(bodies.at(-1)!.assumptions).toEqual({ purchaseOption: 'RESERVED_1_YEAR_NO_UPFRONT', followerFetching: true }));

    const ratio = input('assumption-compression-ratio');
    const asked = bodies.length;
    act(() => ratio.setInputValue('25'));
    expect(screen.getByText('Enter a number from 1 to 20.')).toBeTruthy();
    act(() => ratio.setInputValue('4'));
    await waitFor(() => expect(bodies.at(-1)!.assumptions).toEqual({
      purchaseOption: 'RESERVED_1_YEAR_NO_UPFRONT', followerFetching: true, compressionRatio: 4,
    }));
    expect(bodies.slice(asked).map((b) => b.assumptions?.compressionRatio)).not.toContain(25);
  });

  it('offers on the network step to use or create an S3 gateway endpoint, to require one, or to leave routing alone', async () => {
    renderWithProviders(<InstanceWizard catalog={catalogV1} accounts={[account]} initial={valid} onSubmit={vi.fn()} onCancel={vi.fn()} />, {
      api: fakeApi(routes),
    });
    next();
    await step('network');
    const modes = createWrapper(document.body).findRadioGroup('[data-testid="wizard-s3-endpoint"]')!;
    expect(modes.findButtons().map((b) => b.findNativeInput().getElement().value)).toEqual(['CREATE', 'REQUIRE_EXISTING', 'NONE']);
    expect(modes.findInputByValue('CREATE')!.getElement().checked).toBe(true);
    act(() => modes.findInputByValue('NONE')!.getElement().click());
    expect(modes.findInputByValue('NONE')!.getElement().checked).toBe(true);
  });

  it('shows on review that routing is left alone, and the NAT gateway the S3 traffic then pays', async () => {
    const withNat = costEstimate(1400);
    withNat.diskless.lines.push({
      item: 'nat-gateway',
      description: 'S3 traffic through a NAT gateway (no S3 gateway endpoint) at $0.045 per GB processed',
      quantity: 615_936,
      unit: 'GiB processed',
      monthlyUsd: 27_717.12,
    });
    const api = fakeApi({ ...routes, 'POST /estimates': (request: Request) => request.clone().json()
      .then((body: { s3GatewayEndpoint?: string }) => json(body.s3GatewayEndpoint === 'NONE' ? withNat : estimate)) });
    await renderAtReview(api, { ...valid, network: { ...valid.network, s3GatewayEndpoint: 'NONE' } });
    expect(screen.getByTestId('review-s3-endpoint').textContent).toBe('Leave routing alone');
    await waitFor(() => expect(screen.getByTestId('estimate-diskless-nat-gateway-monthly').textContent).toBe('$27,717'));
    expect(screen.getByTestId('estimate-diskless-nat-gateway-quantity').textContent).toBe('615,936 GiB processed');
    const sent = api.calls.filter((r) => r.url.endsWith('/instances/plan')).at(-1)!;
    expect((await sent.json()).network.s3GatewayEndpoint).toBe('NONE');
  });

  it('lists in words the field errors of a plan the API refuses on review', async () => {
    const problem = {
      type: 'https://keel.dev/problems/validation-failed',
      title: 'Request is invalid',
      status: 400,
      errors: [{ field: 'brokerVersion', message: "'9.9' is not offered" }],
    };
    let refuse = false;
    const api = fakeApi({ ...routes, 'POST /instances/plan': () => (refuse ? json(problem, 400) : json(creationPlan)) });
    renderWithProviders(<InstanceWizard catalog={catalogV1} accounts={[account]} initial={valid} onSubmit={vi.fn()} onCancel={vi.fn()} />, { api });
    next();
    await step('network');
    next();
    await step('storage');
    act(() => input('wizard-aku').setInputValue('7'));
    refuse = true;
    next();
    // An error no step shows lets the wizard on: the review lists it.
    await step('review');
    await waitFor(() => expect(screen.getByTestId('plan-error').textContent).toContain("Broker version: '9.9' is not offered"));
    expect(screen.getByTestId('estimate-savings')).toBeTruthy();
  });
});
