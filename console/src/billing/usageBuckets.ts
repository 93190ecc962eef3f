import type { Usage } from '../api/types';

export type CapacityPeriod = Usage['instances'][number]['periods'][number];

/** The AKU-hours that ran in `[start, start + one step)`. */
export interface UsageBucket {
  start: Date;
  akuHours: number;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** The start of the UTC month `instant` falls in. */
function monthStart(instant: Date): Date {
  return new Date(Date.UTC(instant.getUTCFullYear(), instant.getUTCMonth(), 1));
}

/** The start of the UTC month after the one `instant` falls in. */
export function monthEnd(instant: Date): Date {
  return new Date(Date.UTC(instant.getUTCFullYear(), instant.getUTCMonth() + 1, 1));
}

/** The start of the UTC day `instant` falls in. */
function dayStart(instant: Date): Date {
  return new Date(Math.floor(instant.getTime() / DAY_MS) * DAY_MS);
}

/** Every period's AKU times the hours it overlaps each bucket: a period across a bucket's edge counts in both, each its own share. */
function bucket(periods: readonly CapacityPeriod[], start: Date, stepMs: number, count: number): UsageBucket[] {
  const buckets = Array.from({ length: count }, (_, i) => ({ start: new Date(start.getTime() + i * stepMs), akuHours: 0 }));
  for (const period of periods) {
    const from = Date.parse(period.from);
    const to = Date.parse(period.to);
    for (const b of buckets) {
      const overlap = Math.min(to, b.start.getTime() + stepMs) - Math.max(from, b.start.getTime());
      if (overlap > 0) b.akuHours += (period.aku * overlap) / HOUR_MS;
    }
  }
  return buckets;
}

/** The AKU-hours of each UTC day of the month `month` falls in, first day first; usage outside the month is left out. */
export function usageByDay(periods: readonly CapacityPeriod[], month: Date): UsageBucket[] {
  const start = monthStart(month);
  return bucket(periods, start, DAY_MS, (monthEnd(month).getTime() - start.getTime()) / DAY_MS);
}

/** The AKU-hours of each of the 24 hours of the UTC day `day` falls in; usage outside the day is left out. */
export function usageByHour(periods: readonly CapacityPeriod[], day: Date): UsageBucket[] {
  return bucket(periods, dayStart(day), HOUR_MS, 24);
}

/** The UTC days of `[from, to)` (the last one the day `to` falls in, unless `to` is its midnight), first first. */
export function daysOf(from: Date, to: Date): Date[] {
  const days: Date[] = [];
  for (let day = dayStart(from).getTime(); day < to.getTime(); day += DAY_MS) days.push(new Date(day));
  return days;
}
