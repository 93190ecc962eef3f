import { describe, expect, it } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { AppShell } from '../app/AppShell';
import { useNotifications, type Notice } from '../app/notifications';
import { runningInstance } from '../test/fixtures';
import { renderWithProviders } from '../test/render';
import { adminCredentialsNotice } from './adminCredentials';

const PASSWORD = 'Zp4-Qe9_Tm2xWb7cKr5vNj8aHs3uLd6y';
let notify: (notice: Notice) => void = () => undefined;

function Page() {
  ({ notify } = useNotifications());
  return <AppShell breadcrumbs={[]} content={<p>page</p>} />;
}

describe('the default admin’s credentials after a create', () => {
  it('stay beside the create’s progress until dismissed, then are gone, and are never kept in browser storage', async () => {
    renderWithProviders(<Page />);
    // The create's progress has its own notice, which changes as the operation goes on.
    act(() => notify({ id: `instance-${runningInstance.id}`, type: 'info', loading: true, content: 'Creating instance orders-prod.' }));
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
