import { describe, expect, it } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import createWrapper from '@cloudscape-design/components/test-utils/dom';
import type { BillingSubscription, Instance } from '../api/types';
import { formatDate } from '../app/common';
import { account, catalogV1, runningInstance } from '../test/fixtures';
import { fakeApi, renderWithProviders } from '../test/render';
import InstanceDetailPage from './InstanceDetailPage';
import InstancesPage from './InstancesPage';

const unreachable = { status: 'UNHEALTHY' as const, message: 'listener is unreachable', reportedAt: '2026-11-24T10:15:40Z' };

/** Running, but every broker says its listener cannot be reached: what the Degraded condition sums up. */
const degraded: Instance = {
  ...runningInstance,
  inventory: {
    ...runningInstance.inventory,
    brokers: [0, 1, 2].map((nodeId) => ({
      nodeId,
      availabilityZone: `us-east-1${'abc'[nodeId]}`,
      address: `127.0.0.1:2000${nodeId}`,
      machineId: `i-0ab${nodeId}`,
      health: unreachable,
      drain: null,
    })),
  },
  conditions: [
    { type: 'Ready', status: 'True', reason: 'OperationSucceeded', message: 'CREATE succeeded.', lastTransitionTime: '2026-11-24T10:10:00Z' },
    {
      type: 'Degraded',
      status: 'True',
      reason: 'BrokersUnhealthy',
      message: 'broker 0 listener is unreachable; broker 1 listener is unreachable; broker 2 listener is unreachable.',
      lastTransitionTime: '2026-11-24T10:12:00Z',
    },
  ],
};

function renderDetail(instance: Instance, routes: Record<string, unknown> = {}) {
  const api = fakeApi({
    ...routes,
    [`GET /instances/${instance.id}`]: instance,
    'GET /sizing/catalog': catalogV1,
    'GET /cloud-accounts': { items: [account], nextCursor: null },
    [`GET /instances/${instance.id}/operations`]: { items: [], nextCursor: null },
  });
  renderWithProviders(
    <Routes>
      <Route path="/instances/:instanceId" element={<InstanceDetailPage />} />
    </Routes>,
    { route: `/instances/${instance.id}`, api },
  );
}

describe('instance detail', () => {
  it('shows a running instance whose brokers are unwell as degraded, says why and leads to the brokers', async () => {
    renderDetail(degraded);
    const state = await screen.findByTestId('instance-state');
    expect(state.dataset.state).toBe('RUNNING');
    expect(state.dataset.health).toBe('degraded');
    expect(state.textContent).toBe('Running — degraded');
    expect(createWrapper(state).findStatusIndicator()!.getElement().textContent).toBe('Running — degraded');
    expect(screen.getByTestId('instance-health-message').textContent).toContain('broker 0 listener is unreachable');

    act(() => screen.getByTestId('instance-health-link').click());
    await waitFor(() => expect(screen.getByTestId('brokers-table').textContent).toContain('listener is unreachable'));
  });

  it('shows a scale-up whose new brokers have not reported yet as in progress, not degraded', async () => {
    renderDetail({
      ...runningInstance,
      conditions: [
        {
          type: 'Degraded',
          status: 'Unknown',
          reason: 'BrokersStarting',
          message: 'Brokers 3, 4, 5 are starting (scale-up in progress); every other broker reports healthy.',
          lastTransitionTime: '2026-11-24T10:20:00Z',
        },
      ],
    });
    const state = await screen.findByTestId('instance-state');
    expect(state.dataset.health).toBe('starting');
    expect(createWrapper(state).findStatusIndicator()!.getElement().textContent).toBe('Running — new brokers starting');
    expect(screen.getByTestId('instance-health-message').textContent).toContain('Brokers 3, 4, 5 are starting');
  });

  it('shows a running instance whose broker agents are silent as not reporting, saying nothing is replaced for it', async () => {
    const silentAgent = 'The agent of broker 0 has not reported since 2026-11-24T10:14:00Z. Keel replaces a broker only when '
      + "EC2 reports its machine gone or impaired, never for its agent's silence alone.";
    renderDetail({
      ...degraded,
      conditions: [
        { ...degraded.conditions[1], message: 'broker 0 has not reported for 95 s.' },
        { type: 'AgentsSilent', status: 'True', reason: 'AgentsSilent', message: silentAgent, lastTransitionTime: '2026-11-24T10:14:25Z' },
      ],
    });
    const state = await screen.findByTestId('instance-state');
    expect(state.dataset.health).toBe('silent');
    expect(state.textContent).toBe('Running — broker agents not reporting');
    expect(screen.getByTestId('instance-health-message').textContent).toContain("never for its agent's silence alone");
  });

  it('shows a running instance without a complaint as running', async () => {
    renderDetail(runningInstance);
    const state = await screen.findByTestId('instance-state');
    expect(state.textContent).toBe('Running');
    expect(state.dataset.health).toBeUndefined();
    expect(screen.queryByTestId('instance-health-message')).toBeNull();
  });

  it('says in words what the instance does about the VPC’s S3 gateway endpoint', async () => {
    renderDetail(runningInstance);
    expect((await screen.findByTestId('detail-s3-endpoint')).textContent).toBe('Uses or creates an S3 gateway endpoint');
  });

  it('says when an instance leaves the VPC’s routing alone, and that its S3 traffic may then pay for NAT', async () => {
    renderDetail({ ...runningInstance, spec: { ...runningInstance.spec, network: { ...runningInstance.spec.network, s3GatewayEndpoint: 'NONE' } } });
    const mode = await screen.findByTestId('detail-s3-endpoint');
    expect(mode.textContent).toBe('Leaves the VPC’s routing alone');
    expect(screen.getByText('S3 traffic may go through a NAT gateway; the estimate prices it.')).toBeTruthy();
  });

  it('names the page after the instance and its cloud account by name, linked', async () => {
    renderDetail(runningInstance);
    await waitFor(() => expect(document.title).toBe('orders-prod — Instances — Keel'));
    await waitFor(() => expect(screen.getByTestId('detail-cloud-account').textContent).toBe('prod-analytics'));
    expect(screen.getByTestId('detail-cloud-account').getAttribute('href')).toBe('/cloud-accounts');
  });
});

describe('instances list', () => {
  it('shows a degraded instance as degraded, a healthy one as running, and is titled', async () => {
    const healthy = { ...runningInstance, id: '0c9b8a7d-6e5f-4a3b-8c2d-1e0f9a8b7c6d', name: 'payments' };
    renderWithProviders(<InstancesPage />, { api: fakeApi({ 'GET /instances': { items: [degraded, healthy], nextCursor: null } }) });
    const orders = await screen.findByTestId('instance-state-orders-prod');
    expect(orders.textContent).toBe('Running — degraded');
    expect(screen.getByTestId('instance-state-payments').textContent).toBe('Running');
    expect(document.title).toBe('Instances — Keel');
  });
});

describe('an organization whose subscription ended', () => {
  const graceEndsAt = '2026-12-01T17:02:41Z';
  const subscription = (state: 'ACTIVE' | 'ENDED'): BillingSubscription => ({
    plan: 'MARKETPLACE',
    subscription: {
      state,
      productCode: '4q9rlwmz3y8k2d0c6bn1xv7ep',
      customerAwsAccountId: '294406891311',
      licenseArn: 'arn:aws:license-manager::294406891311:license:l-0f1e2d3c4b5a69788',
      customerIdentifier: null,
      stateChangedAt: '2026-11-24T17:02:41Z',
      entitlement: null,
      endedAt: state === 'ENDED' ? '2026-11-24T17:02:41Z' : null,
      graceEndsAt: state === 'ENDED' ? graceEndsAt : null,
    },
  });

  it('is told on the instance list when its instances are deleted and that their data is kept', async () => {
    renderWithProviders(<InstancesPage />, {
      api: fakeApi({ 'GET /instances': { items: [runningInstance], nextCursor: null }, 'GET /billing/subscription': subscription('ENDED') }),
    });
    const alert = await screen.findByTestId('grace-period-alert');
    expect(alert.textContent).toContain(`deleted on ${formatDate(graceEndsAt)}`);
    expect(alert.textContent).toContain('data bucket kept for the retention period');
  });

  it('is told on an instance’s page too', async () => {
    renderDetail(runningInstance, { 'GET /billing/subscription': subscription('ENDED') });
    expect((await screen.findByTestId('grace-period-alert')).textContent).toContain(formatDate(graceEndsAt));
  });

  it('says nothing while the subscription runs', async () => {
    const api = fakeApi({ 'GET /instances': { items: [runningInstance], nextCursor: null }, 'GET /billing/subscription': subscription('ACTIVE') });
    renderWithProviders(<InstancesPage />, { api });
    await screen.findByTestId('instance-state-orders-prod');
    await waitFor(() => expect(api.calls.some((c) => new URL(c.url).pathname.endsWith('/billing/subscription'))).toBe(true));
    expect(screen.queryByTestId('grace-period-alert')).toBeNull();
  });
});
