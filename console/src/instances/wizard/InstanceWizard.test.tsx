import { describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { createKeelClient, call } from '../../api/client';
import { account, catalogV1, costEstimate, creationPlan, failedAccount } from '../../test/fixtures';
import { fakeApi, json, renderWithProviders } from '../../test/render';
import { toCreation, type SpecDraft } from '../specRules';
import { InstanceWizard } from './InstanceWizard';

const estimate = costEstimate();

const valid: SpecDraft = {
  basics: { name: 'orders-prod', cloudAccountId: account.id, region: 'us-east-1' },
  network: {
    zones: 3,
    vpcId: 'vpc-0a1b2c3d4e5f67890',
    subnets: [
      { availabilityZone: 'us-east-1a', subnetId: 'subnet-0123456789abcdef0' },
      { availabilityZone: 'us-east-1b', subnetId: 'subnet-0fedcba9876543210' },
      { availabilityZone: 'us-east-1c', subnetId: 'subnet-0a0b0c0d0e0f01234' },
    ],
  },
  storage: { walType: 'FSWAL', aku: '6', fsxThroughput: 768, fsxCount: '1' },
};

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
function fieldError(testId: string) {
  const el = screen.getByTestId(testId);
  const field = createWrapper(document.body)
    .findAllFormFields()
    .find((f) => f.getElement().contains(el));
  return field?.findError()?.getElement().textContent ?? '';
}

/** The wizard with a valid draft, on its review step. */
function renderAtReview(api: ReturnType<typeof fakeApi>) {
  renderWithProviders(<InstanceWizard catalog={catalogV1} accounts={[account]} initial={valid} onSubmit={vi.fn()} onCancel={vi.fn()} />, { api });
  next();
  next();
  next();
}

describe('create-instance wizard', () => {
  it('offers only verified cloud accounts: the others are listed but cannot be chosen', () => {
    const failed = { ...failedAccount, id: 'a2b3c4d5-0000-4000-8000-000000000002', name: 'staging' };
    renderWithProviders(<InstanceWizard catalog={catalogV1} accounts={[account, failed]} onSubmit={vi.fn()} onCancel={vi.fn()} />, {
      api: fakeApi({}),
    });
    const select = createWrapper(document.body).findSelect('[data-testid="wizard-cloud-account"]')!;
    act(() => select.openDropdown());
    const options = select.findDropdown().findOptions();
    expect(options.map((o) => o.getElement().textContent)).toEqual([
      expect.stringContaining(account.name),
      expect.stringContaining('staging'),
    ]);
    const disabled = select.findDropdown().findDisabledOptions();
    expect(disabled.map((o) => o.getElement().textContent)).toEqual([expect.stringContaining('staging')]);
  });

  it('suggests the account’s VPCs and subnets, and a chosen subnet brings its zone', async () => {
    const api = fakeApi({
      [`GET /cloud-accounts/${account.id}/networks`]: {
        region: 'us-east-1',
        vpcs: [
          {
            vpcId: 'vpc-0prod',
            name: 'prod',
            cidrBlock: '10.42.0.0/16',
            isDefault: false,
            subnets: [
              { subnetId: 'subnet-0b', availabilityZone: 'us-east-1b', cidrBlock: '10.42.1.0/24', name: 'prod-b' },
              { subnetId: 'subnet-0d', availabilityZone: 'us-east-1d', cidrBlock: '10.42.3.0/24', name: null },
            ],
          },
        ],
      },
    });
    renderWithProviders(
      <InstanceWizard catalog={catalogV1} accounts={[account]} initial={{ ...valid, network: { ...valid.network, vpcId: '', zones: 1, subnets: [{ availabilityZone: 'us-east-1a', subnetId: '' }] } }} onSubmit={vi.fn()} onCancel={vi.fn()} />,
      { api },
    );
    next();
    const vpc = suggest('wizard-vpc');
    act(() => vpc.focus());
    await waitFor(() => expect(vpc.findDropdown().findOptions().map((o) => o.getElement().textContent)).toEqual([expect.stringContaining('prod')]));
    act(() => vpc.selectSuggestion(1));
    expect(vpc.findNativeInput().getElement().value).toBe('vpc-0prod');

    const subnet = suggest('wizard-subnet-0');
    act(() => subnet.focus());
    await waitFor(() => expect(subnet.findDropdown().findOptions()).toHaveLength(2));
    act(() => subnet.selectSuggestion(2));
    expect(subnet.findNativeInput().getElement().value).toBe('subnet-0d');
    expect(input('wizard-az-0').getInputValue()).toBe('us-east-1d');
    expect(api.calls.some((c) => c.url.endsWith(`/cloud-accounts/${account.id}/networks?region=us-east-1`))).toBe(true);
  });

  it('moves between steps only when the current step is valid, and back freely', async () => {
    const api = fakeApi({ 'POST /estimates': estimate });
    renderWithProviders(<InstanceWizard catalog={catalogV1} accounts={[account]} onSubmit={vi.fn()} onCancel={vi.fn()} />, { api });
    expect(screen.getByTestId('wizard-step-basics')).toBeTruthy();

    next();
    expect(screen.getByTestId('wizard-step-basics')).toBeTruthy();
    expect(screen.getByTestId('wizard-step-basics').textContent).toContain('is required');

    act(() => input('wizard-name').setInputValue('orders-prod'));
    next();
    expect(screen.getByTestId('wizard-step-network')).toBeTruthy();

    next();
    expect(screen.getByTestId('wizard-step-network').textContent).toContain('must be a VPC id');
    act(() => suggest('wizard-vpc').setInputValue('vpc-0a1b2c3d4e5f67890'));
    ['subnet-0123456789abcdef0', 'subnet-0fedcba9876543210', 'subnet-0a0b0c0d0e0f01234'].forEach((id, i) =>
      act(() => suggest(`wizard-subnet-${i}`).setInputValue(id)),
    );
    expect(input('wizard-az-2').getInputValue()).toBe('us-east-1c');
    next();
    expect(screen.getByTestId('wizard-step-storage')).toBeTruthy();
    expect(screen.getByTestId('capacity-write').textContent).toBe('60 MiB/s');

    act(() => wizard().findPreviousButton()!.click());
    expect(screen.getByTestId('wizard-step-network')).toBeTruthy();
    next();
    next();
    expect(screen.getByTestId('wizard-step-review')).toBeTruthy();
    expect(screen.getByTestId('review-name').textContent).toBe('orders-prod');
    await waitFor(() => expect(screen.getByTestId('estimate-savings').textContent).toContain('86.67%'));
  });

  it('blocks the storage step when FSx write capacity is short and shows the fix', () => {
    renderWithProviders(
      <InstanceWizard
        catalog={catalogV1}
        accounts={[account]}
        onSubmit={vi.fn()}
        onCancel={vi.fn()}
        initial={{ ...valid, storage: { ...valid.storage, aku: '20', fsxThroughput: 384 } }}
      />,
    );
    next();
    next();
    expect(screen.getByTestId('fsx-capacity-fix').textContent).toContain('Use 3 × 384 MBps or 1 × 1536 MBps, or lower AKU to 7.');
    next();
    expect(screen.getByTestId('wizard-step-storage').textContent).toContain('20 AKU need 400 MiB/s of WAL write capacity');
  });

  it('shows the API’s 400 field errors on the right field and jumps to that step', async () => {
    const problem = {
      type: 'https://keel.dev/problems/validation-failed',
      title: 'Request is invalid',
      status: 400,
      detail: 'network.subnets[1].subnetId: is not in vpc-0a1b2c3d4e5f67890',
      errors: [{ field: 'network.subnets[1].subnetId', message: 'is not in vpc-0a1b2c3d4e5f67890' }],
    };
    const api = fakeApi({ 'POST /estimates': estimate, 'POST /instances': () => json(problem, 400) });
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
    next();
    next();
    next();
    expect(screen.getByTestId('wizard-step-review')).toBeTruthy();
    act(() => wizard().findPrimaryButton().click());
    await waitFor(() => expect(screen.getByTestId('wizard-step-network')).toBeTruthy());
    expect(fieldError('wizard-subnet-1')).toContain('is not in vpc-0a1b2c3d4e5f67890');
    expect(fieldError('wizard-subnet-0')).not.toContain('is not in');
    const sent = api.calls.find((r) => r.method === 'POST' && r.url.endsWith('/instances'));
    expect(sent).toBeDefined();
  });

  it('shows a 409 name conflict on the name field of the first step', async () => {
    const problem = {
      type: 'https://keel.dev/problems/name-taken',
      title: 'Conflict with the current state',
      status: 409,
      detail: 'An instance named orders-prod already exists in this organization.',
      errors: [{ field: 'name', message: 'An instance named orders-prod already exists in this organization.' }],
    };
    const api = fakeApi({ 'POST /estimates': estimate, 'POST /instances': () => json(problem, 409) });
    const client = createKeelClient({ baseUrl: 'http://console.test/api/v1', getAccessToken: () => 't', getOrganization: () => 'acme', fetch: api.fetch });
    renderWithProviders(
      <InstanceWizard catalog={catalogV1} accounts={[account]} initial={valid} onCancel={vi.fn()} onSubmit={async (body) => call(client.POST('/instances', { body }))} />,
      { api },
    );
    next();
    next();
    next();
    act(() => wizard().findPrimaryButton().click());
    await waitFor(() => expect(screen.getByTestId('wizard-step-basics')).toBeTruthy());
    expect(fieldError('wizard-name')).toContain('already exists');
  });

  it('shows on review the plan of exactly what Create would send', async () => {
    const api = fakeApi({ 'POST /estimates': estimate, 'POST /instances/plan': creationPlan });
    renderAtReview(api);
    await waitFor(() => expect(screen.getByTestId('plan-summary').textContent).toBe('(3 to create, 0 to update, 0 to delete)'));
    const sent = api.calls.find((r) => r.url.endsWith('/instances/plan'))!;
    expect(await sent.json()).toEqual(toCreation(valid));
    const rows = createWrapper(screen.getByTestId('plan')).findTable()!.findRows();
    expect(rows.map((r) => r.getElement().textContent)).toEqual([
      expect.stringMatching(/\+ create.*s3-bucket.*data-bucket.*Not created yet/),
      expect.stringMatching(/\+ create.*fsx-file-system.*wal-1/),
      expect.stringMatching(/\+ create.*ec2-instance.*broker-1/),
    ]);
    expect(rows[0].find('[data-action]')!.getElement().dataset.action).toBe('CREATE');
  });

  it('lists the field errors of a plan the API refuses', async () => {
    const problem = {
      type: 'https://keel.dev/problems/validation-failed',
      title: 'Request is invalid',
      status: 400,
      errors: [{ field: 'fsx.count', message: 'must be between 1 and 10; got 11' }],
    };
    const api = fakeApi({ 'POST /estimates': estimate, 'POST /instances/plan': () => json(problem, 400) });
    renderAtReview(api);
    await waitFor(() => expect(screen.getByTestId('plan-error').textContent).toContain('fsx.count: must be between 1 and 10; got 11'));
    expect(screen.getByTestId('estimate-savings')).toBeTruthy();
  });
});
