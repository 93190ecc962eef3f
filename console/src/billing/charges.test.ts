import { describe, expect, it } from 'vitest';
import type { Usage } from '../api/types';
import { usage as running } from '../test/fixtures';
import { monthCharges } from './charges';

describe('the month’s charges', () => {
  it('charges the AKU-hours so far at the price and projects the capacity running now to the month’s end', () => {
    const charges = monthCharges(running, 0.1);
    expect(charges.soFarUsd).toBeCloseTo(248.6, 9);
    expect(charges.runningAku).toBe(6);
    expect(charges.hoursLeft).toBe(8 * 24);
    expect(charges.projectedUsd).toBeCloseTo(248.6 + 6 * 192 * 0.1, 9);
  });

  it('adds every running instance’s capacity, and only what still runs', () => {
    const two = { ...running, instances: [...running.instances, { ...running.instances[0], name: 'payments', periods: [{ aku: 12, from: '2026-11-20T00:00:00Z', to: '2026-11-23T00:00:00Z', running: true }] }] };
    expect(monthCharges(two, 0.25).runningAku).toBe(18);
  });

  it('projects nothing more when nothing runs, or for a month that is over', () => {
    const stopped = { ...running, instances: running.instances.map((i) => ({ ...i, periods: i.periods.map((p) => ({ ...p, running: false })) })) };
    expect(monthCharges(stopped, 0.1).projectedUsd).toBeCloseTo(248.6, 9);

    const october: Usage = { ...running, from: '2026-10-01T00:00:00Z', to: '2026-11-01T00:00:00Z' };
    const over = monthCharges(october, 0.1);
    expect(over.hoursLeft).toBe(0);
    expect(over.projectedUsd).toBe(over.soFarUsd);
  });

  it('projects the hours left from a window that ends mid-hour', () => {
    expect(monthCharges({ ...running, to: '2026-11-30T23:30:00Z' }, 1).hoursLeft).toBe(0.5);
  });
});
