import { describe, expect, it } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import createWrapper from '@cloudscape-design/components/test-utils/dom';
import type { Operation } from '../api/types';
import { AppShell } from '../app/AppShell';
import { useNotifications, type Notice, type StartedChange } from '../app/notifications';
import { runningInstance } from '../test/fixtures';
import { fakeApi, renderWithProviders } from '../test/render';
import { adminCredentialsNotice } from './adminCredentials';

const PASSWORD = 'Zp4-Qe9_Tm2xWb7cKr5vNj8aHs3uLd6y';
let notify: (notice: Notice) => void = () => undefined;
let follow: (change: StartedChange) => void = () => undefined;

function Page() {
  ({ notify, follow } = useNotifications());
  return <AppShell breadcrumbs={[]} content={<p>page</p>} />;
}

const creating: Operation = {
  id: 'op-1',
  instanceId: runningInstance.id,
  type: 'CREATE',
  state: 'PENDING',
  steps: [],
  progress: { completedSteps: 0, totalSteps: 6 },
  error: null,
  requestedBy: 'acme-editor',
  reason: null,
  createdAt: '2026-11-24T10:00:00Z',
  startedAt: null,
  finishedAt: null,
};

describe('the default admin’s credentials after a create', () => {
  it('stay beside the create’s progress until dismissed, then are gone, and are never kept in browser storage', async () => {
    renderWithProviders(<Page />, { api: fakeApi({ 'GET /operations/op-1': { ...creating, state: 'RUNNING' } }) });
    act(() => follow({ operation: creating, instanceName: 'orders-prod', started: 'Creating instance orders-prod.' }));
    act(() => notify(adminCredentialsNotice(runningInstance.id, 'orders-prod', { username: 'admin', password: PASSWORD })));

    const items = () => createWrapper(document.body).findFlashbar()!.findItems();
    expect(items()).toHaveLength(2);
    expect(screen.getByTestId('secret-username').textContent).toContain('admin');
    expect(screen.getByTestId('secret-password').textContent).toContain(PASSWORD);
    expect(JSON.stringify({ ...localStorage, ...sessionStorage })).not.toContain(PASSWORD);

    const notice = items().find((i) => i.getElement().textContent?.includes('The admin user of orders-prod'))!;
    act(() => notice.findDismissButton()!.click());
    await waitFor(() => expect(items()).toHaveLength(1));
    await waitFor(() => expect(document.body.textContent).not.toContain(PASSWORD));
  });
});
