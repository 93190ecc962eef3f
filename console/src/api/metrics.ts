import { useQuery } from '@tanstack/react-query';
import { call, useApiClient } from './client';
import type { MetricName } from './types';

/** The last `seconds` up to now (a window that moves), or a fixed window between two instants. */
export type MetricsRange = { type: 'relative'; seconds: number } | { type: 'absolute'; from: string; to: string };

/** Brokers report every 10 s: refreshing faster would only fetch the same points again. */
const REFRESH_MS = 10_000;

export const metricKeys = {
  all: ['metrics'] as const,
  forInstance: (instanceId: string, names: readonly MetricName[], range: MetricsRange) =>
    [...metricKeys.all, 'instance', instanceId, names, range] as const,
};

function instantsOf(range: MetricsRange): { from: string; to: string } {
  if (range.type === 'absolute') return range;
  const to = new Date();
  return { from: new Date(to.getTime() - range.seconds * 1000).toISOString(), to: to.toISOString() };
}

/**
 * The instance's broker metrics over `range`. A relative range is keyed by its length, not its
 * instants, so each refresh moves the same query's window forward; a fixed window never changes,
 * so it is not refreshed.
 */
export function useInstanceMetrics(instanceId: string, range: MetricsRange, names: readonly MetricName[]) {
  const client = useApiClient();
  return useQuery({
    queryKey: metricKeys.forInstance(instanceId, names, range),
    queryFn: async () =>
      (
        await call(
          client.GET('/instances/{instanceId}/metrics', {
            params: { path: { instanceId }, query: { names: names.join(','), ...instantsOf(range) } },
          }),
        )
      ).data,
    refetchInterval: range.type === 'relative' ? REFRESH_MS : false,
  });
}
