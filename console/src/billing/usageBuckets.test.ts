import { describe, expect, it } from 'vitest';
import { daysOf, usageByDay, usageByHour, type CapacityPeriod } from './usageBuckets';

const period = (aku: number, from: string, to: string): CapacityPeriod => ({ aku, from, to, running: false });
const november = new Date('2026-11-14T12:00:00Z');
const amounts = (buckets: { akuHours: number }[]) => buckets.map((b) => b.akuHours);

describe('usage by day', () => {
  it('has a bucket for each UTC day of the month, starting at its midnight', () => {
    const days = usageByDay([], november);
    expect(days).toHaveLength(30);
    expect(days[0].start.toISOString()).toBe('2026-11-01T00:00:00.000Z');
    expect(days[29].start.toISOString()).toBe('2026-11-30T00:00:00.000Z');
    expect(usageByDay([], new Date('2028-02-10T00:00:00Z'))).toHaveLength(29);
  });

  it('splits a period across midnight between the two days, each its own hours', () => {
    const days = usageByDay([period(2, '2026-11-09T22:00:00Z', '2026-11-10T03:00:00Z')], november);
    expect(days[8].akuHours).toBe(4);
    expect(days[9].akuHours).toBe(6);
    expect(amounts(days).reduce((a, b) => a + b)).toBe(10);
  });

  it('leaves out what ran before the month began and after it ended', () => {
    const days = usageByDay(
      [period(3, '2026-10-31T23:00:00Z', '2026-11-01T01:00:00Z'), period(5, '2026-11-30T22:00:00Z', '2026-12-01T02:00:00Z')],
      november,
    );
    expect(days[0].akuHours).toBe(3);
    expect(days[29].akuHours).toBe(10);
    expect(amounts(days).reduce((a, b) => a + b)).toBe(13);
  });

  it('adds up periods that share a day', () => {
    const days = usageByDay([period(3, '2026-11-05T00:00:00Z', '2026-11-05T12:00:00Z'), period(6, '2026-11-05T12:00:00Z', '2026-11-06T00:00:00Z')], november);
    expect(days[4].akuHours).toBe(108);
    expect(days[5].akuHours).toBe(0);
  });
});

describe('usage by hour', () => {
  it('has the 24 hours of the chosen UTC day, and only what ran in them', () => {
    const hours = usageByHour([period(2, '2026-11-09T22:00:00Z', '2026-11-10T03:00:00Z')], new Date('2026-11-10T17:45:00Z'));
    expect(hours).toHaveLength(24);
    expect(hours[0].start.toISOString()).toBe('2026-11-10T00:00:00.000Z');
    expect(hours[23].start.toISOString()).toBe('2026-11-10T23:00:00.000Z');
    expect(amounts(hours).slice(0, 4)).toEqual([2, 2, 2, 0]);
    expect(amounts(hours).reduce((a, b) => a + b)).toBe(6);
  });

  it('counts a part of an hour as that part', () => {
    const hours = usageByHour([period(4, '2026-11-10T05:30:00Z', '2026-11-10T06:15:00Z')], new Date('2026-11-10T00:00:00Z'));
    expect(hours[5].akuHours).toBe(2);
    expect(hours[6].akuHours).toBe(1);
  });

  it('has the last hour of the month before the next month begins', () => {
    const hours = usageByHour([period(5, '2026-11-30T22:00:00Z', '2026-12-01T02:00:00Z')], new Date('2026-11-30T00:00:00Z'));
    expect(amounts(hours).slice(21)).toEqual([0, 5, 5]);
  });
});

describe('the days of a window', () => {
  it('runs to the day the window ends in, not past a midnight end', () => {
    const from = new Date('2026-11-01T00:00:00Z');
    expect(daysOf(from, new Date('2026-11-03T00:00:00Z')).map((d) => d.toISOString())).toEqual(['2026-11-01T00:00:00.000Z', '2026-11-02T00:00:00.000Z']);
    expect(daysOf(from, new Date('2026-11-03T00:01:00Z'))).toHaveLength(3);
  });
});
