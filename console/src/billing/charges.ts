import type { Usage } from '../api/types';
import { monthEnd } from './usageBuckets';

/** What the month costs at the listing's price: so far, and by the month's end if the running capacity stays as it is. */
export interface MonthCharges {
  soFarUsd: number;
  projectedUsd: number;
  /** The AKU running at the end of the window: what the projection assumes for the rest of the month. */
  runningAku: number;
  /** The hours from the end of the window to the end of its month. */
  hoursLeft: number;
}

/**
 * The charges for `usage`'s month at `usdPerAkuHour`. A past month's window reaches its end, so nothing is projected
 * for it; the current month's runs until now and the capacity still running is assumed to run on until the month ends.
 */
export function monthCharges(usage: Usage, usdPerAkuHour: number): MonthCharges {
  const to = new Date(usage.to);
  const hoursLeft = Math.max(0, (monthEnd(new Date(usage.from)).getTime() - to.getTime()) / 3_600_000);
  const runningAku = usage.instances.flatMap((i) => i.periods).filter((p) => p.running).reduce((sum, p) => sum + p.aku, 0);
  const soFarUsd = usage.akuHours * usdPerAkuHour;
  return { soFarUsd, projectedUsd: soFarUsd + runningAku * hoursLeft * usdPerAkuHour, runningAku, hoursLeft };
}
