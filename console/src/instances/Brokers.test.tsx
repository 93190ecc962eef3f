import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import type { Instance } from '../api/types';
import { runningInstance } from '../test/fixtures';
import { renderWithProviders } from '../test/render';
import { Brokers } from './InstanceDetailPage';

const healthy = { status: 'HEALTHY' as const, message: 'Healthy.', reportedAt: '2026-11-23T02:00:00Z' };

const retiring: Instance = {
  ...runningInstance,
  inventory: {
    ...runningInstance.inventory,
    brokers: [
      { nodeId: 0, availabilityZone: 'us-east-1a', address: '10.0.1.10:9092', machineId: 'i-0a1', health: healthy, drain: null },
      { nodeId: 3, availabilityZone: 'us-east-1a', address: '10.0.1.13:9092', machineId: 'i-0a4', health: healthy, drain: { status: 'DRAINING', partitionsRemaining: 12 } },
      { nodeId: 4, availabilityZone: 'us-east-1b', address: '10.0.2.14:9092', machineId: 'i-0a5', health: healthy, drain: { status: 'FAILED', partitionsRemaining: 1 } },
    ],
  },
};

/** A scale-up's new brokers: one whose machine has no address yet, one waiting for the instance's credentials. */
const scaling: Instance = {
  ...runningInstance,
  state: 'CHANGING',
  inventory: {
    ...runningInstance.inventory,
    brokers: [
      { nodeId: 0, availabilityZone: 'us-east-1a', address: '10.0.1.10:9092', machineId: 'i-0a1', health: healthy, drain: null },
      {
        nodeId: 3,
        availabilityZone: 'us-east-1a',
        address: null,
        machineId: 'i-0a4',
        health: { status: 'STARTING', message: 'Its machine is starting: its agent has not reported from it yet.', reportedAt: null },
        drain: null,
      },
      {
        nodeId: 4,
        availabilityZone: 'us-east-1b',
        address: '10.0.2.14:9092',
        machineId: 'i-0a5',
        health: { status: 'STARTING', message: "It serves; the instance's credentials are being written to it.", reportedAt: '2026-11-23T02:00:00Z' },
        drain: null,
      },
    ],
  },
};

describe('brokers', () => {
  it('shows the drain of each broker a scale-down retires', () => {
    renderWithProviders(<Brokers instance={retiring} />);
    expect(screen.queryByTestId('broker-drain-0')).toBeNull();
    expect(screen.getByTestId('broker-drain-3').textContent).toBe('Retiring: 12 partition replicas left to move');
    expect(screen.getByTestId('broker-drain-4').textContent).toContain('Drain failed');
  });

  it('shows the brokers a scale adds as starting, with why, and the machine each runs on', () => {
    renderWithProviders(<Brokers instance={scaling} />);
    expect(screen.getByTestId('broker-health-3').dataset.state).toBe('STARTING');
    expect(screen.getByTestId('broker-health-3').textContent).toBe('Starting');
    expect(screen.getByTestId('brokers-table').textContent).toContain('its agent has not reported from it yet');
    expect(screen.getByTestId('brokers-table').textContent).toContain('credentials are being written');
    expect(screen.getByTestId('brokers-table').textContent).toContain('i-0a5');
    expect(screen.queryByTestId('broker-health-0')!.dataset.state).toBe('HEALTHY');
  });
});
