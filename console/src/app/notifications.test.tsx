import { describe, expect, it } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import createWrapper from '@cloudscape-design/components/test-utils/dom';
import type { Operation } from '../api/types';
import { runningInstance } from '../test/fixtures';
import { fakeApi, json, renderWithProviders, eventually } from '../test/render';
import { AppShell } from './AppShell';
import { useNotifications, type Notice, type StartedChange } from './notifications';

let notify: (notice: Notice) => void = () => undefined;
let follow: (change: StartedChange) => void = () => undefined;

function Page() {
  ({ notify, follow } = useNotifications());
  return <AppShell breadcrumbs={[]} content={<p>page</p>} />;
}

const flashbar = () => createWrapper(document.body).findFlashbar()!;
const texts = () => flashbar().findItems().map((item) => item.getElement().textContent ?? '');

function operation(id: string, state: Operation['state'], overrides: Partial<Operation> = {}): Operation {
  return {
    id,
    instanceId: runningInstance.id,
    type: 'CREATE',
    state,
    steps: [
      { name: 'create-buckets', state: 'SUCCEEDED', attempts: 1, startedAt: null, finishedAt: null, message: null },
      { name: 'launch-brokers', state: state === 'FAILED' ? 'FAILED' : 'PENDING', attempts: 8, startedAt: null, finishedAt: null, message: null },
    ],
    progress: { completedSteps: 1, totalSteps: 2 },
    error: null,
    requestedBy: 'acme-editor',
    reason: null,
    createdAt: '2026-11-24T10:00:00Z',
    startedAt: null,
    finishedAt: null,
    ...overrides,
  };
}

describe('notifications', () => {
  it('a new change to an instance replaces the notice of the one before', () => {
    const api = fakeApi({ 'GET /operations/op-1': operation('op-1', 'RUNNING'), 'GET /operations/op-2': operation('op-2', 'RUNNING') });
    renderWithProviders(<Page />, { api });
    act(() => follow({ operation: operation('op-1', 'PENDING'), instanceName: 'orders', started: 'Creating instance orders.' }));
    act(() => notify({ type: 'info', content: 'Something else.' }));
    act(() => follow({ operation: operation('op-2', 'PENDING', { type: 'UPDATE' }), instanceName: 'orders', started: 'Scaling orders to 9 AKU.' }));

    expect(texts()).toHaveLength(2);
    expect(texts()[0]).toContain('Scaling orders to 9 AKU.');
    expect(texts().join()).not.toContain('Creating instance orders.');
  });

  it('ends a change’s notice with its success, in place of “running”', async () => {
    let state: Operation['state'] = 'RUNNING';
    const api = fakeApi({ 'GET /operations/op-1': () => json(operation('op-1', state)) });
    renderWithProviders(<Page />, { api });
    act(() => follow({ operation: operation('op-1', 'PENDING'), instanceName: 'orders-prod', started: 'Creating instance orders-prod.' }));
    expect(texts()).toEqual([expect.stringContaining('Creating instance orders-prod.')]);

    await waitFor(() => expect(api.calls.length).toBeGreaterThan(0));
    state = 'SUCCEEDED';
    await eventually(() => expect(texts()).toEqual([expect.stringContaining('Instance orders-prod is running.')]));
    expect(flashbar().findItemsByType('success')).toHaveLength(1);
  });

  it('ends a failed change’s notice with the step it failed at and why', async () => {
    const failed = operation('op-1', 'FAILED', {
      error: { code: 'MISSING_PERMISSION', message: 'The role is not allowed ec2:RunInstances.' },
    });
    renderWithProviders(<Page />, { api: fakeApi({ 'GET /operations/op-1': failed }) });
    act(() => follow({ operation: operation('op-1', 'PENDING'), instanceName: 'orders-prod', started: 'Creating instance orders-prod.' }));
    await eventually(() => expect(flashbar().findItemsByType('error')).toHaveLength(1));
    expect(texts()[0]).toContain('Creating instance orders-prod failed at step launch-brokers');
    expect(texts()[0]).toContain('The role is not allowed ec2:RunInstances.');
  });

  it('stacks more than two notices behind a toggle that has a name', () => {
    renderWithProviders(<Page />);
    for (const id of ['a', 'b', 'c']) {
      act(() => notify({ type: 'info', content: `Notice ${id}.` }));
    }
    expect(screen.getByRole('button', { name: 'View all notifications' })).toBeTruthy();
  });
});
