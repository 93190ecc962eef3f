import { describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import createWrapper from '@cloudscape-design/components/test-utils/dom';
import type { Instance, Plan } from '../api/types';
import { catalogV1, runningInstance } from '../test/fixtures';
import { fakeApi, json, renderWithProviders } from '../test/render';
import { UpdateAkuModal } from './UpdateAkuModal';

const planPath = `POST /instances/${runningInstance.id}/plan`;
const patchPath = `PATCH /instances/${runningInstance.id}`;

const scaleOut: Plan = {
  kind: 'UPDATE',
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
const sent = (api: ReturnType<typeof fakeApi>, method: string) => api.calls.filter((r) => r.method === method);
const wrapper = () => createWrapper(document.body);

describe('update capacity modal', () => {
  it('plans the AKU the user settles on and shows the plan', async () => {
    const api = fakeApi({ [planPath]: scaleOut });
    renderModal(api);
    act(() => wrapper().findInput('[data-testid="update-aku-input"]')!.setInputValue('9'));
    act(() => wrapper().findInput('[data-testid="update-aku-input"]')!.setInputValue('10'));
    await waitFor(() => expect(screen.getByTestId('plan-summary').textContent).toBe('(1 to create, 1 to update, 0 to delete)'));
    const plans = sent(api, 'POST');
    expect(plans).toHaveLength(1);
    expect(new URL(plans[0].url).pathname).toBe(`/api/v1/instances/${instance.id}/plan`);
    expect(await body(plans[0])).toEqual({ aku: 10 });
    const rows = createWrapper(screen.getByTestId('plan')).findTable()!.findRows();
    expect(rows[1].getElement().textContent).toMatch(/~ update.*lt-0a1b2c3d.*new broker count/);
  });

  it('asks for no plan while the value breaks a rule', async () => {
    const api = fakeApi({ [planPath]: scaleOut });
    renderModal(api);
    act(() => wrapper().findInput('[data-testid="update-aku-input"]')!.setInputValue('2'));
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(sent(api, 'POST')).toHaveLength(0);
    expect(screen.queryByTestId('plan')).toBeNull();
  });

  it('changes the FSx with the wizard’s capacity rules and patches only the FSx', async () => {
    const onStarted = vi.fn();
    const api = fakeApi({ [planPath]: scaleOut, [patchPath]: () => json({ id: 'op-1' }, 202) });
    renderModal(api, onStarted);
    act(() => wrapper().findInput('[data-testid="update-aku-input"]')!.setInputValue('20'));
    act(() => wrapper().findButton('[data-testid="update-aku-apply"]')!.click());
    const countField = wrapper()
      .findAllFormFields()
      .find((f) => f.find('[data-testid="update-fsx-count"]'))!;
    expect(countField.findError()!.getElement().textContent).toContain('use 2 × 768 MBps or 1 × 1536 MBps, or lower AKU to 15');
    expect(screen.getByTestId('fsx-capacity').dataset.fits).toBe('false');

    act(() => wrapper().findRadioGroup('[data-testid="update-fsx-throughput"]')!.findInputByValue('1536')!.click());
    expect(screen.getByTestId('fsx-capacity').dataset.fits).toBe('true');
    await waitFor(() => expect(sent(api, 'POST')).toHaveLength(1));
    expect(await body(sent(api, 'POST')[0])).toEqual({ aku: 20, fsx: { throughputMBps: 1536, count: 1 } });

    act(() => wrapper().findInput('[data-testid="update-aku-input"]')!.setInputValue('6'));
    act(() => wrapper().findButton('[data-testid="update-aku-apply"]')!.click());
    await waitFor(() => expect(onStarted).toHaveBeenCalled());
    const [patch] = sent(api, 'PATCH');
    expect(patch.headers.get('If-Match')).toBe('"3"');
    expect(await body(patch)).toEqual({ fsx: { throughputMBps: 1536, count: 1 } });
  });
});
