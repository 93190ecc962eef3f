import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import createWrapper from '@cloudscape-design/components/test-utils/dom';
import type { CloudAccount } from '../api/types';
import { account, catalogV1, failedAccount } from '../test/fixtures';
import { fakeApi, json, renderWithProviders, eventually } from '../test/render';
import CloudAccountsPage from './CloudAccountsPage';
import ConnectCloudAccountPage from './ConnectCloudAccountPage';

const page = () => createWrapper(document.body);
const list = (...accounts: CloudAccount[]) => ({ items: accounts, nextCursor: null });

function expectVerificationDetails() {
  expect(screen.getByTestId('verification-message').textContent).toContain('does not allow 2 action(s)');
  const missing = screen.getByTestId('missing-actions');
  expect([...missing.querySelectorAll('li')].map((li) => li.textContent)).toEqual(['ec2:RunInstances', 'fsx:CreateFileSystem']);
}

describe('cloud accounts list', () => {
  it('shows why a failed account is not verified, to viewers too', async () => {
    renderWithProviders(<CloudAccountsPage />, { role: 'viewer', api: fakeApi({ 'GET /cloud-accounts': list(failedAccount) }) });
    const status = await screen.findByTestId('account-status-prod-analytics');
    expect(status.dataset.state).toBe('VERIFICATION_FAILED');
    expect(status.textContent).toBe('Verification failed');
    expect(screen.queryByTestId('missing-actions')).toBeNull();

    act(() => page().findPopover()!.findTrigger().click());
    expectVerificationDetails();
  });

  it('shows a verified account’s status without details', async () => {
    renderWithProviders(<CloudAccountsPage />, { api: fakeApi({ 'GET /cloud-accounts': list(account) }) });
    expect((await screen.findByTestId('account-status-prod-analytics')).dataset.state).toBe('VERIFIED');
    expect(page().findPopover()).toBeNull();
  });

  it('verifies the selected account again and shows its new status', async () => {
    let current = failedAccount;
    const api = fakeApi({
      'GET /cloud-accounts': () => json(list(current)),
      [`POST /cloud-accounts/${account.id}/verify`]: () => {
        current = account;
        return json(current);
      },
    });
    renderWithProviders(<CloudAccountsPage />, { api });
    await screen.findByTestId('account-status-prod-analytics');
    const verify = page().findButton('[data-testid="verify-account"]')!;
    expect(verify.isDisabled()).toBe(true);

    act(() => page().findTable()!.findRowSelectionArea(1)!.click());
    act(() => verify.click());

    await waitFor(() => expect(screen.getByTestId('account-status-prod-analytics').dataset.state).toBe('VERIFIED'));
    const sent = api.calls.filter((r) => r.method === 'POST');
    expect(sent.map((r) => new URL(r.url).pathname)).toEqual([`/api/v1/cloud-accounts/${account.id}/verify`]);
    expect(sent[0].headers.get('Idempotency-Key')).toBeTruthy();
    expect(sent[0].headers.get('Accept')).toBe('application/json, application/problem+json');
    expect(page().findFlashbar()!.findItems()[0].getElement().textContent).toContain('The role of prod-analytics is verified');
  });

  it('flashes what is still missing when the role is still not verified', async () => {
    const api = fakeApi({
      'GET /cloud-accounts': list(failedAccount),
      [`POST /cloud-accounts/${account.id}/verify`]: failedAccount,
    });
    renderWithProviders(<CloudAccountsPage />, { api });
    await screen.findByTestId('account-status-prod-analytics');
    act(() => page().findTable()!.findRowSelectionArea(1)!.click());
    act(() => page().findButton('[data-testid="verify-account"]')!.click());

    await eventually(() => expect(page().findFlashbar()!.findItems()).toHaveLength(1));
    const flash = page().findFlashbar()!.findItems()[0];
    expect(flash.findHeader()!.getElement().textContent).toBe('The role of prod-analytics is not verified');
    expectVerificationDetails();
  });
});

describe('connect cloud account', () => {
  const connectRoutes = (
    <Routes>
      <Route path="/cloud-accounts/connect" element={<ConnectCloudAccountPage />} />
      <Route path="/cloud-accounts" element={<CloudAccountsPage />} />
    </Routes>
  );

  afterEach(() => vi.restoreAllMocks());

  it('downloads the onboarding template through the API', async () => {
    const yaml = "Parameters:\n  ExternalId:\n    Default: 'keel-3f9a1c7e5b2d4086'\n";
    const api = fakeApi({
      'GET /sizing/catalog': catalogV1,
      'GET /cloud-accounts/onboarding-template': () => new Response(yaml, { headers: { 'Content-Type': 'application/yaml' } }),
    });
    // jsdom does not download; record the file the browser would have saved instead.
    const createObjectURL = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:template');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const saved: { href: string; fileName: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ href: this.href, fileName: this.download });
    });
    renderWithProviders(connectRoutes, { api, route: '/cloud-accounts/connect' });

    act(() => page().findButton('[data-testid="download-template"]')!.click());

    await waitFor(() => expect(saved).toEqual([{ href: 'blob:template', fileName: 'keel-cross-account-role.yaml' }]));
    expect(await (createObjectURL.mock.calls[0][0] as Blob).text()).toBe(yaml);
    const request = api.calls.find((r) => r.url.endsWith('/cloud-accounts/onboarding-template'))!;
    expect(request.headers.get('Accept')).toContain('application/yaml');
  });

  it('shows why the role is not verified right after connecting', async () => {
    const api = fakeApi({
      'GET /sizing/catalog': catalogV1,
      'POST /cloud-accounts': () => json(failedAccount, 201),
      'GET /cloud-accounts': list(failedAccount),
    });
    renderWithProviders(connectRoutes, { api, route: '/cloud-accounts/connect' });
    act(() => page().findInput('[data-testid="connect-name"]')!.setInputValue('prod-analytics'));
    act(() => page().findInput('[data-testid="connect-account-id"]')!.setInputValue('123456789012'));
    act(() => page().findInput('[data-testid="connect-role-arn"]')!.setInputValue(account.roleArn));
    const regions = page().findMultiselect('[data-testid="connect-regions"]')!;
    act(() => regions.openDropdown());
    await eventually(() => expect(regions.findDropdown().findOptions()).toHaveLength(catalogV1.regions.length));
    act(() => regions.selectOption(1));

    act(() => page().findButton('[data-testid="connect-submit"]')!.click());

    await screen.findByTestId('cloud-accounts-table');
    const flash = page().findFlashbar()!.findItems()[0];
    expect(flash.findHeader()!.getElement().textContent).toBe('Cloud account prod-analytics connected, but its role is not verified');
    expectVerificationDetails();
    const body = (await api.calls.find((r) => r.method === 'POST')!.json()) as unknown;
    expect(body).toEqual({ name: 'prod-analytics', awsAccountId: '123456789012', roleArn: account.roleArn, regions: ['us-east-1'] });
  });
});
