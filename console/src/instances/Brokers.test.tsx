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
      { nodeId: 0, availabilityZone: 'us-east-1a', address: '10.0.1.10:9092', health: healthy, drain: null },
      { nodeId: 3, availabilityZone: 'us-east-1a', address: '10.0.1.13:9092', health: healthy, drain: { status: 'DRAINING', partitionsRemaining: 12 } },
      { nodeId: 4, availabilityZone: 'us-east-1b', address: '10.0.2.14:9092', health: healthy, drain: { status: 'FAILED', partitionsRemaining: 1 } },
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
});
