import { useQuery } from '@tanstack/react-query';
import { call, useApiClient } from './client';

export const billingKeys = {
  all: ['billing'] as const,
  usage: (from: string, to: string | undefined) => [...billingKeys.all, 'usage', from, to] as const,
};

/** The organization's AKU-hours in `[from, to)`; without `to`, up to now (and refreshed each minute). */
export function useUsage(from: string, to?: string) {
  const client = useApiClient();
  return useQuery({
    queryKey: billingKeys.usage(from, to),
    queryFn: async () => (await call(client.GET('/billing/usage', { params: { query: { from, to } } }))).data,
    refetchInterval: to === undefined ? 60_000 : false,
  });
}
