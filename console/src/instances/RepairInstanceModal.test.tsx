import { describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import createWrapper from '@cloudscape-design/components/test-utils/dom';
import type { Operation, Plan } from '../api/types';
import { runningInstance } from '../test/fixtures';
import { fakeApi, json, renderWithProviders } from '../test/render';
import { RepairInstanceModal } from './RepairInstanceModal';

const planPath = `POST /instances/${runningInstance.id}/plan`;
const repairPath = `POST /instances/${runningInstance.id}/repair`;

const drift: Plan = {
  kind: 'REPAIR',
  dataRetainedUntil: null,
  changes: [
    { action: 'REPLACE', resourceType: 'ec2-instance', name: 'broker-5', id: 'i-0c5', reason: 'its agent has not reported for 95 s' },
    { action: 'UPDATE', resourceType: 'ec2-security-group', name: 'security-group', id: 'sg-0a1', reason: 'ingress rule removed' },
  ],
  summary: { create: 0, update: 1, replace: 1, delete: 0 },
};

const queued: Operation = {
  id: '5d1c0a52-6f0e-4a8e-9f1c-2b3a4c5d6e7f',
  instanceId: runningInstance.id,
  type: 'REPAIR',
  state: 'PENDING',
  steps: [],
  progress: { completedSteps: 0, totalSteps: 0 },
  error: null,
  requestedBy: 'acme-editor',
  reason: null,
  createdAt: '2026-11-23T01:00:00Z',
  startedAt: null,
  finishedAt: null,
};

const confirm = () => createWrapper(document.body).findButton('[data-testid="repair-instance-confirm"]')!;

describe('repair modal', () => {
  it('shows what the repair would change and starts it', async () => {
    const api = fakeApi({ [planPath]: drift, [repairPath]: json(queued, 202) });
    const onStarted = vi.fn();
    renderWithProviders(<RepairInstanceModal instance={runningInstance} onClose={vi.fn()} onStarted={onStarted} />, { api });

    await waitFor(() => expect(screen.getByTestId('plan-summary').textContent).toBe('(0 to create, 1 to update, 1 to replace, 0 to delete)'));
    const rows = createWrapper(screen.getByTestId('plan')).findTable()!.findRows();
    expect(rows[0].getElement().textContent).toMatch(/-\/\+ replace.*broker-5.*has not reported/);
    const plans = api.calls.filter((r) => r.method === 'POST' && r.url.endsWith('/plan'));
    expect(plans).toHaveLength(1);
    expect(await plans[0].text()).toBe('');

    act(() => confirm().click());
    await waitFor(() => expect(onStarted).toHaveBeenCalled());
    const repairs = api.calls.filter((r) => r.url.endsWith('/repair'));
    expect(repairs).toHaveLength(1);
    expect(repairs[0].headers.get('Idempotency-Key')).toBeTruthy();
  });

  it('offers nothing to start when the account already matches the spec', async () => {
    const api = fakeApi({ [planPath]: { kind: 'REPAIR', dataRetainedUntil: null, changes: [], summary: { create: 0, update: 0, replace: 0, delete: 0 } } });
    renderWithProviders(<RepairInstanceModal instance={runningInstance} onClose={vi.fn()} onStarted={vi.fn()} />, { api });

    await waitFor(() => expect(screen.getByTestId('plan').textContent).toContain('No changes'));
    expect(confirm().isDisabled()).toBe(true);
  });
});
