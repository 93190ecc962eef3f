import { describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import createWrapper from '@cloudscape-design/components/test-utils/dom';
import type { Operation, Plan } from '../api/types';
import { formatDate } from '../app/common';
import { runningInstance } from '../test/fixtures';
import { fakeApi, json, renderWithProviders } from '../test/render';
import { DeleteInstanceModal } from './DeleteInstanceModal';

const planPath = `POST /instances/${runningInstance.id}/plan`;
const deletePath = `DELETE /instances/${runningInstance.id}`;
const keptUntil = '2026-12-02T16:40:00Z';

/** The delete plan as the API answers it: the data bucket kept until `keptUntil`, unless purged. */
const deletePlan = (request: Request) => {
  const purge = new URL(request.url).searchParams.get('purge') === 'true';
  const plan: Plan = {
    kind: 'DELETE',
    dataRetainedUntil: purge ? null : keptUntil,
    changes: [{ action: purge ? 'DELETE' : 'UPDATE', resourceType: 's3-bucket', name: 'data-bucket', id: 'keel-data', reason: null }],
    summary: { create: 0, update: purge ? 0 : 1, replace: 0, delete: purge ? 1 : 0 },
  };
  return json(plan);
};

const queued: Operation = {
  id: '6e2d1b63-7a1f-4b9f-8a2d-3c4b5d6e7f80',
  instanceId: runningInstance.id,
  type: 'DELETE',
  state: 'PENDING',
  steps: [],
  progress: { completedSteps: 0, totalSteps: 0 },
  error: null,
  requestedBy: 'acme-admin',
  reason: null,
  createdAt: '2026-11-25T16:40:00Z',
  startedAt: null,
  finishedAt: null,
};

const page = () => createWrapper(document.body);
const confirm = () => page().findButton('[data-testid="delete-instance-confirm"]')!;
const typeName = (name: string) => act(() => page().findInput('[data-testid="delete-instance-typed"]')!.setInputValue(name));

describe('delete modal', () => {
  it('says until when the data bucket is kept, and deletes without purge for an editor', async () => {
    const api = fakeApi({ [planPath]: deletePlan, [deletePath]: json(queued, 202) });
    const onStarted = vi.fn();
    renderWithProviders(<DeleteInstanceModal instance={runningInstance} onClose={vi.fn()} onStarted={onStarted} />, { api });

    await waitFor(() => expect(screen.getByTestId('delete-instance-retention').textContent).toContain(`kept, with its data, until ${formatDate(keptUntil)}`));
    expect(new URL(api.calls[0].url).searchParams.get('delete')).toBe('true');
    expect(page().findCheckbox('[data-testid="delete-instance-purge"]')).toBeNull();
    expect(confirm().isDisabled()).toBe(true);
    typeName(runningInstance.name);
    act(() => confirm().click());

    await waitFor(() => expect(onStarted).toHaveBeenCalled());
    const deletes = api.calls.filter((r) => r.method === 'DELETE');
    expect(deletes).toHaveLength(1);
    expect(new URL(deletes[0].url).searchParams.has('purge')).toBe(false);
  });

  it('offers admins to purge the data at once, and says the data is then lost', async () => {
    const api = fakeApi({ [planPath]: deletePlan, [deletePath]: json(queued, 202) });
    const onStarted = vi.fn();
    renderWithProviders(<DeleteInstanceModal instance={runningInstance} onClose={vi.fn()} onStarted={onStarted} />, { api, role: 'admin' });

    await waitFor(() => expect(screen.getByTestId('delete-instance-retention').textContent).toContain('kept'));
    act(() => page().findCheckbox('[data-testid="delete-instance-purge"]')!.findNativeInput().click());
    expect(screen.getByTestId('delete-instance-retention').textContent).toContain('the data is lost');
    typeName(runningInstance.name);
    act(() => confirm().click());

    await waitFor(() => expect(onStarted).toHaveBeenCalled());
    const deletes = api.calls.filter((r) => r.method === 'DELETE');
    expect(new URL(deletes[0].url).searchParams.get('purge')).toBe('true');
  });

  it('cannot delete while deletion protection is on', async () => {
    const api = fakeApi({ [planPath]: deletePlan });
    renderWithProviders(
      <DeleteInstanceModal instance={{ ...runningInstance, deletionProtection: true }} onClose={vi.fn()} onStarted={vi.fn()} />,
      { api, role: 'admin' },
    );

    expect(screen.getByTestId('delete-instance-protected').textContent).toContain('Turn off deletion protection');
    typeName(runningInstance.name);
    expect(confirm().isDisabled()).toBe(true);
    expect(api.calls.filter((r) => r.method === 'DELETE')).toHaveLength(0);
  });
});
