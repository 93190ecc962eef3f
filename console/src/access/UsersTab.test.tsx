import { describe, expect, it } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import createWrapper from '@cloudscape-design/components/test-utils/dom';
import type { KafkaUser, KafkaUserCredentials } from '../api/types';
import { formatDate } from '../app/common';
import { plaintextInstance, runningInstance } from '../test/fixtures';
import { eventually, fakeApi, json, renderWithProviders } from '../test/render';
import { UsersTab } from './UsersTab';

const base = `/instances/${runningInstance.id}/users`;
const PASSWORD = '3q2-7Yx_Lk9vPz0aQ4mW8nR1sT6uV5bC';
const NEW_PASSWORD = 'Zp4-Qe9_Tm2xWb7cKr5vNj8aHs3uLd6y';

const admin: KafkaUser = {
  name: 'admin',
  mechanism: 'SCRAM-SHA-512',
  status: 'ACTIVE',
  statusMessage: null,
  credentialVersion: 1,
  createdAt: '2026-11-24T10:00:00Z',
  passwordRotatedAt: '2026-11-24T10:00:00Z',
  restoredAt: '2026-11-25T08:30:00Z',
};
const created = (name: string, password: string): KafkaUserCredentials => ({
  user: { ...admin, name, status: 'CREATING', restoredAt: null },
  password,
});

const page = () => createWrapper(document.body);
const fieldError = (testId: string) => page().findFormField(`[data-testid="${testId}"]`)?.findError()?.getElement().textContent;
const selectRow = (name: string) =>
  act(() => page().findTable('[data-testid="users-table"]')!.findRowSelectionArea(rowOf(name))!.click());
const rowOf = (name: string) => {
  const rows = page().findTable('[data-testid="users-table"]')!.findRows();
  return rows.findIndex((r) => r.getElement().textContent?.includes(name)) + 1;
};

describe('Users tab', () => {
  it('lists users with their status and when Keel restored them; viewers get no actions', async () => {
    renderWithProviders(<UsersTab instance={runningInstance} />, { role: 'viewer', api: fakeApi({ [`GET ${base}`]: { items: [admin], nextCursor: null } }) });

    await waitFor(() => expect(screen.getByTestId('user-status-admin').textContent).toContain('Active'));
    expect(screen.getByTestId('user-status-admin-restored').textContent).toBe(`Restored ${formatDate(admin.restoredAt)}`);
    expect(screen.queryByTestId('create-user')).toBeNull();
    expect(screen.queryByTestId('rotate-user')).toBeNull();
    expect(screen.queryByTestId('delete-user')).toBeNull();
  });

  it('shows a new user’s password once, with a client.properties for it, and forgets it when closed', async () => {
    const api = fakeApi({
      [`GET ${base}`]: { items: [admin], nextCursor: null },
      [`POST ${base}`]: () => json(created('orders-service', PASSWORD), 201),
    });
    renderWithProviders(<UsersTab instance={runningInstance} />, { api });
    await waitFor(() => expect(screen.getByTestId('user-status-admin')).toBeTruthy());

    act(() => screen.getByTestId('create-user').click());
    act(() => page().findInput('[data-testid="user-name"]')!.setInputValue('orders-service'));
    act(() => page().findButton('[data-testid="create-user-submit"]')!.click());

    await eventually(() => expect(screen.getByTestId('one-time-password')).toBeTruthy());
    const post = api.calls.find((r) => r.method === 'POST')!;
    expect(await post.json()).toEqual({ name: 'orders-service' });
    expect(post.headers.get('Idempotency-Key')).toBeTruthy();
    expect(screen.getByTestId('secret-password').textContent).toContain(PASSWORD);
    const properties = screen.getByTestId('secret-properties').textContent ?? '';
    expect(properties).toContain(`username="orders-service" password="${PASSWORD}";`);
    expect(properties).toContain('ssl.truststore.location=orders-prod-ca.pem');

    act(() => screen.getByTestId('one-time-password-done').click());
    await waitFor(() => expect(screen.queryByTestId('one-time-password')).toBeNull());
    expect(document.body.textContent).not.toContain(PASSWORD);
    expect(JSON.stringify({ ...localStorage })).not.toContain(PASSWORD);
  });

  it('checks the name before asking, and puts the API’s refusal on the name field', async () => {
    const api = fakeApi({
      [`GET ${base}`]: { items: [], nextCursor: null },
      [`POST ${base}`]: () =>
        json(
          {
            type: 'https://keel.dev/problems/validation-failed',
            title: 'The request is not valid',
            status: 400,
            errors: [{ field: 'name', message: 'must be letters, digits, ., _ or - (at most 64)' }],
          },
          400,
        ),
    });
    renderWithProviders(<UsersTab instance={runningInstance} />, { api });
    await waitFor(() => expect(screen.getAllByTestId('create-user').length).toBeGreaterThan(0));

    act(() => screen.getAllByTestId('create-user')[0].click());
    act(() => page().findButton('[data-testid="create-user-submit"]')!.click());
    expect(fieldError('user-name-field')).toBe('Enter a name.');
    expect(api.calls.filter((r) => r.method === 'POST')).toHaveLength(0);

    act(() => page().findInput('[data-testid="user-name"]')!.setInputValue('orders service'));
    act(() => page().findButton('[data-testid="create-user-submit"]')!.click());
    await eventually(() => expect(fieldError('user-name-field')).toBe('must be letters, digits, ., _ or - (at most 64)'));
    expect(screen.queryByTestId('request-error')).toBeNull();
  });

  it('rotates a password after a confirmation and shows the new one once', async () => {
    const api = fakeApi({
      [`GET ${base}`]: { items: [admin], nextCursor: null },
      [`POST ${base}/admin/rotate-password`]: () => json({ user: { ...admin, status: 'UPDATING', credentialVersion: 2 }, password: NEW_PASSWORD }),
    });
    renderWithProviders(<UsersTab instance={runningInstance} />, { api });
    await waitFor(() => expect(screen.getByTestId('user-status-admin')).toBeTruthy());

    expect(page().findButton('[data-testid="rotate-user"]')!.isDisabled()).toBe(true);
    selectRow('admin');
    act(() => screen.getByTestId('rotate-user').click());
    expect(api.calls.filter((r) => r.method === 'POST')).toHaveLength(0);
    act(() => page().findButton('[data-testid="rotate-user-confirm"]')!.click());

    await eventually(() => expect(screen.getByTestId('secret-password').textContent).toContain(NEW_PASSWORD));
    expect(screen.getByTestId('one-time-password').textContent).toContain('New password for admin');
  });

  it('deletes a user after a confirmation', async () => {
    const api = fakeApi({
      [`GET ${base}`]: { items: [admin], nextCursor: null },
      [`DELETE ${base}/admin`]: () => json({ ...admin, status: 'DELETING' }, 202),
    });
    renderWithProviders(<UsersTab instance={runningInstance} />, { api });
    await waitFor(() => expect(screen.getByTestId('user-status-admin')).toBeTruthy());

    selectRow('admin');
    act(() => screen.getByTestId('delete-user').click());
    act(() => page().findButton('[data-testid="delete-user-confirm"]')!.click());

    await waitFor(() => expect(api.calls.filter((r) => r.method === 'DELETE')).toHaveLength(1));
    await waitFor(() => expect(screen.queryByTestId('delete-user-modal')).toBeNull());
  });

  it('polls while a user is on its way to the brokers, and shows it active once the agent has applied it', async () => {
    let status: KafkaUser['status'] = 'CREATING';
    const api = fakeApi({ [`GET ${base}`]: () => json({ items: [{ ...admin, status, restoredAt: null }], nextCursor: null }) });
    renderWithProviders(<UsersTab instance={runningInstance} />, { api });
    await waitFor(() => expect(screen.getByTestId('user-status-admin').textContent).toContain('Creating'));

    status = 'ACTIVE';
    await waitFor(() => expect(screen.getByTestId('user-status-admin').textContent).toContain('Active'), { timeout: 5000 });
    expect(api.calls.filter((r) => r.method === 'GET').length).toBeGreaterThan(1);
  });

  it('says a plaintext instance has no users, without asking the API', () => {
    const api = fakeApi({});
    renderWithProviders(<UsersTab instance={plaintextInstance} />, { api });
    expect(screen.getByTestId('access-unauthenticated')).toBeTruthy();
    expect(api.calls).toHaveLength(0);
  });
});
