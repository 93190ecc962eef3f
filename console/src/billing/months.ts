/** A calendar month (UTC) to show usage for: `to` is absent for the current one, which runs until now. */
export interface Month {
  label: string;
  from: string;
  to?: string;
}

/** The current month and the `count - 1` before it, newest first. */
export function recentMonths(now: Date, count: number): Month[] {
  const months: Month[] = [];
  for (let back = 0; back < count; back++) {
    const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));
    const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back + 1, 1));
    months.push({
      label: start.toLocaleString('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' }),
      from: start.toISOString(),
      to: back === 0 ? undefined : end.toISOString(),
    });
  }
  return months;
}
