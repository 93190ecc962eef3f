import { describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import createWrapper from '@cloudscape-design/components/test-utils/dom';
import type { EstimateRequest, Instance, Plan } from '../api/types';
import { catalogV1, costEstimate, runningInstance } from '../test/fixtures';
import { eventually, fakeApi, json, renderWithProviders } from '../test/render';
import { PLAN_DELAY_MS, UpdateAkuModal } from './UpdateAkuModal';

const planPath = `POST /instances/${runningInstance.id}/plan`;
const patchPath = `PATCH /instances/${runningInstance.id}`;
const estimatePath = 'POST /estimates';

/** Prices $200 per AKU, so the totals show which spec was priced. */
const pricePerAku = async (request: Request) => json(costEstimate(((await request.json()) as EstimateRequest).aku * 200));

const scaleOut: Plan = {
  kind: 'UPDATE',
  dataRetainedUntil: null,
  changes: [
    { action: 'CREATE', resourceType: 'ec2-instance', name: 'broker-7', id: null, reason: null },
    { action: 'UPDATE', resourceType: 'ec2-launch-template', name: 'brokers', id: 'lt-0a1b2c3d', reason: 'new broker count' },
  ],
  summary: { create: 1, update: 1, replace: 0, delete: 0 },
};

/** The fixture instance on 1 × 768 MBps FSx, which carries up to 15 AKU. */
const instance: Instance = { ...runningInstance, spec: { ...runningInstance.spec, fsx: { throughputMBps: 768, count: 1 } } };

function renderModal(api: ReturnType<typeof fakeApi>, onStarted = vi.fn()) {
  renderWithProviders(
    <UpdateAkuModal instance={instance} etag='"3"' catalog={catalogV1} onClose={vi.fn()} onStarted={onStarted} />,
    { api },
  );
}

const body = async (request: Request) => request.json();
/** The requests that went to `route`, named as fakeApi names them. */
const sent = (api: ReturnType<typeof fakeApi>, route: string) =>
  api.calls.filter((r) => `${r.method} ${new URL(r.url).pathname.replace(/^\/api\/v1/, '')}` === route);
const setAku = (value: string) => act(() => wrapper().findInput('[data-testid="update-aku-input"]')!.setInputValue(value));
const wrapper = () => createWrapper(document.body);
const applyButton = () => wrapper().findButton('[data-testid="update-aku-apply"]')!;

describe('update capacity modal', () => {
  it('plans the AKU the user settles on and shows the plan', async () => {
    const api = fakeApi({ [estimatePath]: pricePerAku, [planPath]: scaleOut });
    renderModal(api);
    setAku('9');
    setAku('10');
    await waitFor(() => expect(screen.getByTestId('plan-summary').textContent).toBe('(1 to create, 1 to update, 0 to delete)'));
    const plans = sent(api, planPath);
    expect(plans).toHaveLength(1);
    expect(new URL(plans[0].url).pathname).toBe(`/api/v1/instances/${instance.id}/plan`);
    expect(await body(plans[0])).toEqual({ aku: 10 });
    const rows = createWrapper(screen.getByTestId('plan')).findTable()!.findRows();
    expect(rows[1].getElement().textContent).toMatch(/~ update.*lt-0a1b2c3d.*new broker count/);
  });

  it('asks for no plan and no estimate while the value breaks a rule', async () => {
    const api = fakeApi({ [estimatePath]: pricePerAku, [planPath]: scaleOut });
    renderModal(api);
    await waitFor(() => expect(screen.getByTestId('cost-current').textContent).toBe('$1,200 per month'));
    // The clock, not a sleep: past the delay after the last keystroke, whatever would be asked has been.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      setAku('2');
      await act(() => vi.advanceTimersByTimeAsync(2 * PLAN_DELAY_MS));
    } finally {
      vi.useRealTimers();
    }
    expect(sent(api, planPath)).toHaveLength(0);
    expect(screen.queryByTestId('plan')).toBeNull();
    const estimates = await Promise.all(sent(api, estimatePath).map(body));
    expect(estimates.map((e) => e.aku)).toEqual([6]);
    expect(screen.getByTestId('cost-current').textContent).toBe('$1,200 per month');
    expect(screen.queryByTestId('cost-proposed')).toBeNull();
    expect(screen.queryByTestId('cost-delta')).toBeNull();
  });

  it('prices the current and the proposed spec alike and shows the difference with its sign', async () => {
    const api = fakeApi({ [estimatePath]: pricePerAku, [planPath]: scaleOut });
    renderModal(api);
    await waitFor(() => expect(screen.getByTestId('cost-current').textContent).toBe('$1,200 per month'));

    setAku('10');
    await waitFor(() => expect(screen.getByTestId('cost-delta').textContent).toBe('+$800 per month (+66.67%)'));
    expect(screen.getByTestId('cost-proposed').textContent).toBe('$2,000 per month');
    // Priced with the instance's S3 gateway endpoint option, as the API prices the instance itself.
    const spec = { region: 'us-east-1', zones: 3, wal: { type: 'FSWAL' }, fsx: { throughputMBps: 768, count: 1 }, s3GatewayEndpoint: 'CREATE' };
    expect(await Promise.all(sent(api, estimatePath).map(body))).toEqual([
      { ...spec, aku: 6 },
      { ...spec, aku: 10 },
    ]);

    setAku('4');
    await waitFor(() => expect(screen.getByTestId('cost-delta').textContent).toBe('\u2212$400 per month (\u221233.33%)'));
    expect(screen.getByTestId('cost-proposed').textContent).toBe('$800 per month');
    expect(screen.getByTestId('cost-current').textContent).toBe('$1,200 per month');
  });

  it('says once why the proposed cost is missing, shows no difference and keeps Apply disabled', async () => {
    const problem = { type: 'about:blank', title: 'Estimates are unavailable', status: 503, detail: 'The price list is being refreshed.' };
    const api = fakeApi({
      [estimatePath]: async (request: Request) =>
        ((await request.clone().json()) as EstimateRequest).aku === 6 ? pricePerAku(request) : json(problem, 503),
      [planPath]: scaleOut,
    });
    renderModal(api);
    setAku('10');
    await waitFor(() => expect(screen.getByTestId('update-load-error').textContent).toContain('The price list is being refreshed.'));
    expect(screen.getByTestId('cost-proposed').textContent).toBe('Not available');
    expect(screen.getByTestId('cost-current').textContent).toBe('$1,200 per month');
    expect(screen.getByTestId('cost-delta').textContent).toBe('—');
    expect(document.body.textContent!.match(/The price list is being refreshed/g)).toHaveLength(1);
    expect(applyButton().isDisabled()).toBe(true);
  });

  it('with the API unreachable, says so once with a retry, keeps Apply disabled, and recovers', async () => {
    let down = true;
    const offline = () => Promise.reject(new TypeError('Failed to fetch'));
    const api = fakeApi({
      [estimatePath]: (request: Request) => (down ? offline() : pricePerAku(request)),
      [planPath]: () => (down ? offline() : json(scaleOut)),
    });
    renderModal(api);
    setAku('10');
    await waitFor(() => expect(sent(api, planPath)).toHaveLength(1));
    await waitFor(() => expect(screen.getByTestId('update-load-error').textContent).toContain('The control plane cannot be reached (Failed to fetch).'));
    expect(document.body.textContent!.match(/Failed to fetch/g)).toHaveLength(1);
    expect(screen.queryByTestId('plan-error')).toBeNull();
    expect(applyButton().isDisabled()).toBe(true);

    down = false;
    act(() => wrapper().findButton('[data-testid="update-load-error-retry"]')!.click());
    await waitFor(() => expect(screen.getByTestId('plan-summary').textContent).toBe('(1 to create, 1 to update, 0 to delete)'));
    await waitFor(() => expect(screen.getByTestId('cost-delta').textContent).toBe('+$800 per month (+66.67%)'));
    expect(screen.queryByTestId('update-load-error')).toBeNull();
    expect(applyButton().isDisabled()).toBe(false);
  });

  it('shows a capacity the API refuses on the AKU field, not as a failed load, and keeps Apply disabled', async () => {
    const message = "The subscription's contract allows 4 AKU at once across the organization, and 10 AKU were asked.";
    const refusal = {
      type: 'https://keel.dev/problems/entitlement-exceeded',
      title: 'Beyond the subscription',
      status: 409,
      detail: message,
      errors: [{ field: 'aku', message }],
    };
    const api = fakeApi({
      [estimatePath]: pricePerAku,
      [planPath]: async (request: Request) => (((await request.json()) as { aku: number }).aku > 8 ? json(refusal, 409) : json(scaleOut)),
    });
    renderModal(api);
    setAku('10');
    const akuField = () => wrapper().findFormField('[data-testid="update-aku-field"]')!;
    await waitFor(() => expect(screen.getByTestId('update-aku-modal').textContent).toContain('allows 4 AKU at once'));
    expect(akuField().findError()!.getElement().textContent).toContain('allows 4 AKU at once');
    expect(screen.queryByTestId('update-load-error')).toBeNull();
    expect(screen.queryByTestId('plan')).toBeNull();
    expect(applyButton().isDisabled()).toBe(true);

    setAku('8');
    await waitFor(() => expect(screen.getByTestId('plan-summary').textContent).toBe('(1 to create, 1 to update, 0 to delete)'));
    expect(akuField().findError()).toBeNull();
    await waitFor(() => expect(applyButton().isDisabled()).toBe(false));
  });

  it('changes the FSx with the wizard’s capacity rules and patches only the FSx', async () => {
    const onStarted = vi.fn();
    const api = fakeApi({ [estimatePath]: pricePerAku, [planPath]: scaleOut, [patchPath]: () => json({ id: 'op-1' }, 202) });
    renderModal(api, onStarted);
    setAku('20');
    act(() => wrapper().findButton('[data-testid="update-aku-apply"]')!.click());
    const countField = wrapper()
      .findAllFormFields()
      .find((f) => f.find('[data-testid="update-fsx-count"]'))!;
    expect(countField.findError()!.getElement().textContent).toContain('use 2 × 768 MBps or 1 × 1536 MBps, or lower AKU to 15');
    expect(screen.getByTestId('fsx-capacity').dataset.fits).toBe('false');

    act(() => wrapper().findRadioGroup('[data-testid="update-fsx-throughput"]')!.findInputByValue('1536')!.click());
    expect(screen.getByTestId('fsx-capacity').dataset.fits).toBe('true');
    await waitFor(() => expect(sent(api, planPath)).toHaveLength(1));
    expect(await body(sent(api, planPath)[0])).toEqual({ aku: 20, fsx: { throughputMBps: 1536, count: 1 } });

    setAku('6');
    // Apply waits for the plan and the cost of what it would apply.
    await eventually(() => expect(applyButton().isDisabled()).toBe(false));
    act(() => applyButton().click());
    await waitFor(() => expect(onStarted).toHaveBeenCalled());
    const [patch] = sent(api, patchPath);
    expect(patch.headers.get('If-Match')).toBe('"3"');
    expect(await body(patch)).toEqual({ fsx: { throughputMBps: 1536, count: 1 } });
  });
});
