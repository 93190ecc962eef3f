import type { ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import createWrapper from '@cloudscape-design/components/test-utils/dom';
import type { AuditEvent, Usage } from '../api/types';
import AuditLogPage from '../audit/AuditLogPage';
import BillingPage from '../billing/BillingPage';
import CloudAccountsPage from '../cloudAccounts/CloudAccountsPage';
import ConnectCloudAccountPage from '../cloudAccounts/ConnectCloudAccountPage';
import CreateInstancePage from '../instances/CreateInstancePage';
import InstanceDetailPage from '../instances/InstanceDetailPage';
import InstancesPage from '../instances/InstancesPage';
import { account, catalogV1, runningInstance } from '../test/fixtures';
import { eventually, fakeApi, json, renderWithProviders, type Handler } from '../test/render';

const usage: Usage = { from: '2026-11-01T00:00:00Z', to: '2026-11-23T00:00:00Z', akuHours: 6, instances: [] };
const event: AuditEvent = {
  id: '3c1d0b7e-0f6a-4b1e-9d2c-7a8b9c0d1e2f',
  occurredAt: '2026-11-23T09:20:00Z',
  actor: { subject: 's', username: 'acme-editor' },
  action: 'instance.create',
  resourceType: 'instance',
  resourceId: runningInstance.id,
  requestId: 'req-1',
  before: null,
  after: null,
};

interface PageCase {
  name: string;
  ui: ReactElement;
  route: string;
  /** What the page reads, and the answer it gets once the API is back. */
  reads: Record<string, unknown>;
  /** The page's error header. */
  failed: string;
  /** Something only the loaded page shows. */
  loaded: () => HTMLElement;
}

const page = (path: string, element: ReactElement) => (
  <Routes>
    <Route path={path} element={element} />
  </Routes>
);

const PAGES: PageCase[] = [
  {
    name: 'instances',
    ui: <InstancesPage />,
    route: '/instances',
    reads: { 'GET /instances': { items: [runningInstance], nextCursor: null } },
    failed: 'The instances could not be loaded',
    loaded: () => screen.getByTestId('instance-link-orders-prod'),
  },
  {
    name: 'instance detail',
    ui: page('/instances/:instanceId', <InstanceDetailPage />),
    route: `/instances/${runningInstance.id}`,
    reads: {
      [`GET /instances/${runningInstance.id}`]: runningInstance,
      'GET /sizing/catalog': catalogV1,
      'GET /cloud-accounts': { items: [account], nextCursor: null },
    },
    failed: 'The instance could not be loaded',
    loaded: () => screen.getByTestId('instance-name'),
  },
  {
    name: 'create instance',
    ui: <CreateInstancePage />,
    route: '/instances/create',
    reads: { 'GET /sizing/catalog': catalogV1, 'GET /cloud-accounts': { items: [account], nextCursor: null } },
    failed: 'The wizard could not load the sizing catalog or the cloud accounts',
    loaded: () => screen.getByTestId('create-wizard'),
  },
  {
    name: 'cloud accounts',
    ui: <CloudAccountsPage />,
    route: '/cloud-accounts',
    reads: { 'GET /cloud-accounts': { items: [account], nextCursor: null } },
    failed: 'The cloud accounts could not be loaded',
    loaded: () => screen.getByTestId('cloud-account-prod-analytics'),
  },
  {
    name: 'billing',
    ui: <BillingPage />,
    route: '/billing',
    reads: { 'GET /billing/usage': usage },
    failed: 'The usage could not be loaded',
    loaded: () => screen.getByText('6', { selector: '[data-testid="billing-total"]' }),
  },
  {
    name: 'audit log',
    ui: <AuditLogPage />,
    route: '/audit',
    reads: { 'GET /audit-events': { items: [event], nextCursor: null } },
    failed: 'The audit log could not be loaded',
    loaded: () => screen.getByText('instance.create'),
  },
];

const never: Handler = () => new Promise<Response>(() => undefined);

describe.each(PAGES)('the $name page', ({ ui, route, reads, failed, loaded }) => {
  it('shows that it is loading while the API has not answered', () => {
    renderWithProviders(ui, { route, api: fakeApi(Object.fromEntries(Object.keys(reads).map((r) => [r, never]))) });
    const spinner = createWrapper(document.body).findSpinner() !== null;
    expect(spinner || document.body.textContent!.includes('Loading…')).toBe(true);
    expect(screen.queryByTestId('load-error')).toBeNull();
  });

  it('says once what failed when the API cannot be reached, and loads on Retry', async () => {
    let reachable = false;
    const api = fakeApi(
      Object.fromEntries(
        Object.entries(reads).map(([r, body]) => [r, () => (reachable ? json(body) : Promise.reject(new TypeError('Failed to fetch')))]),
      ),
    );
    renderWithProviders(ui, { route, api });
    const error = await screen.findByTestId('load-error');
    expect(error.textContent).toContain(failed);
    expect(error.textContent).toContain('The control plane cannot be reached (Failed to fetch).');
    expect(screen.getAllByTestId('load-error')).toHaveLength(1);

    reachable = true;
    act(() => screen.getByTestId('load-error-retry').click());
    await waitFor(() => expect(loaded()).toBeTruthy());
    expect(screen.queryByTestId('load-error')).toBeNull();
  });
});

describe('the connect-account page', () => {
  const regions = () => createWrapper(document.body).findMultiselect('[data-testid="connect-regions"]')!;
  const footer = () => regions().findDropdown().findFooterRegion()?.getElement().textContent ?? '';

  it('shows the regions loading while the API has not answered', () => {
    renderWithProviders(<ConnectCloudAccountPage />, { route: '/cloud-accounts/connect', api: fakeApi({ 'GET /sizing/catalog': never }) });
    act(() => regions().openDropdown());
    expect(footer()).toContain('Loading…');
  });

  it('says the regions could not be loaded and loads them on Retry', async () => {
    let reachable = false;
    const api = fakeApi({
      'GET /sizing/catalog': () => (reachable ? json(catalogV1) : Promise.reject(new TypeError('Failed to fetch'))),
    });
    renderWithProviders(<ConnectCloudAccountPage />, { route: '/cloud-accounts/connect', api });
    await waitFor(() => expect(api.calls).toHaveLength(1));
    act(() => regions().openDropdown());
    await eventually(() => expect(footer()).toContain('The regions could not be loaded.'));

    reachable = true;
    act(() => regions().findErrorRecoveryButton()!.click());
    await eventually(() => expect(regions().findDropdown().findOptions()).toHaveLength(catalogV1.regions.length));
  });
});
