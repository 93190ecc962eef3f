import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import InstancesPage from '../instances/InstancesPage';
import CloudAccountsPage from '../cloudAccounts/CloudAccountsPage';
import { InstanceActions } from '../instances/InstanceDetailPage';
import { account, runningInstance } from '../test/fixtures';
import { fakeApi, renderWithProviders } from '../test/render';

const api = () =>
  fakeApi({
    'GET /instances': { items: [runningInstance], nextCursor: null },
    'GET /cloud-accounts': { items: [account], nextCursor: null },
  });

describe('role-aware UI', () => {
  it('viewers see no create button on instances', async () => {
    renderWithProviders(<InstancesPage />, { role: 'viewer', api: api() });
    await waitFor(() => expect(screen.getByTestId('instance-link-orders-prod')).toBeTruthy());
    expect(screen.queryByTestId('create-instance')).toBeNull();
  });

  it('editors see the create button', async () => {
    renderWithProviders(<InstancesPage />, { role: 'editor', api: api() });
    await waitFor(() => expect(screen.getByTestId('instance-link-orders-prod')).toBeTruthy());
    expect(screen.getByTestId('create-instance')).toBeTruthy();
  });

  it('viewers see no update, repair or delete on an instance; editors and admins do', () => {
    const { unmount } = renderWithProviders(<InstanceActions instance={runningInstance} onUpdate={vi.fn()} onRepair={vi.fn()} onDelete={vi.fn()} />, { role: 'viewer' });
    expect(screen.queryByTestId('update-aku')).toBeNull();
    expect(screen.queryByTestId('repair-instance')).toBeNull();
    expect(screen.queryByTestId('delete-instance')).toBeNull();
    unmount();
    renderWithProviders(<InstanceActions instance={runningInstance} onUpdate={vi.fn()} onRepair={vi.fn()} onDelete={vi.fn()} />, { role: 'admin' });
    expect(screen.getByTestId('update-aku')).toBeTruthy();
    expect(screen.getByTestId('repair-instance')).toBeTruthy();
    expect(screen.getByTestId('delete-instance')).toBeTruthy();
  });

  it('viewers see no connect, verify or delete on cloud accounts', async () => {
    renderWithProviders(<CloudAccountsPage />, { role: 'viewer', api: api() });
    await waitFor(() => expect(screen.getByTestId('cloud-account-prod-analytics')).toBeTruthy());
    expect(screen.queryByTestId('connect-cloud-account')).toBeNull();
    expect(screen.queryByTestId('verify-account')).toBeNull();
    expect(screen.queryByTestId('delete-cloud-account')).toBeNull();
  });

  it('editors see verify and delete on cloud accounts', async () => {
    renderWithProviders(<CloudAccountsPage />, { role: 'editor', api: api() });
    await waitFor(() => expect(screen.getByTestId('cloud-account-prod-analytics')).toBeTruthy());
    expect(screen.getByTestId('verify-account')).toBeTruthy();
    expect(screen.getByTestId('delete-cloud-account')).toBeTruthy();
  });

  it('shows the empty state with a create button to editors', async () => {
    renderWithProviders(<InstancesPage />, { role: 'editor', api: fakeApi({ 'GET /instances': { items: [], nextCursor: null } }) });
    await waitFor(() => expect(screen.getByText('No instances')).toBeTruthy());
    expect(screen.getAllByTestId('create-instance').length).toBe(2);
  });
});
