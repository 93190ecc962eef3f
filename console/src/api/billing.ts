import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, collectPages, newIdempotencyKey, useApiClient } from './client';
import type { Budget } from './types';

export const billingKeys = {
  all: ['billing'] as const,
  usage: (from: string, to: string | undefined) => [...billingKeys.all, 'usage', from, to] as const,
  budget: () => [...billingKeys.all, 'budget'] as const,
  subscription: () => [...billingKeys.all, 'subscription'] as const,
  meteringRecords: (month: string) => [...billingKeys.all, 'metering-records', month] as const,
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

/** The organization's spend guardrails, this month's use against them, and the trial's figures while it has one. */
export function useBudget() {
  const client = useApiClient();
  return useQuery({
    queryKey: billingKeys.budget(),
    queryFn: async () => (await call(client.GET('/billing/budget'))).data,
    refetchInterval: 60_000,
  });
}

/** How the organization pays: its AWS Marketplace subscription, or the trial. */
export function useSubscription() {
  const client = useApiClient();
  return useQuery({
    queryKey: billingKeys.subscription(),
    queryFn: async () => (await call(client.GET('/billing/subscription'))).data,
    refetchInterval: 60_000,
  });
}

/** The metering ledger's records for the UTC month `month` (`YYYY-MM`), newest hour first: a month has at most 744 hours. */
export function useMeteringRecords(month: string) {
  const client = useApiClient();
  return useQuery({
    queryKey: billingKeys.meteringRecords(month),
    queryFn: () =>
      collectPages(
        async (cursor) =>
          (await call(client.GET('/billing/metering-records', { params: { query: { month, limit: 100, cursor } } }))).data,
        8,
      ),
    refetchInterval: 60_000,
  });
}

/** Replaces every guardrail (admins only): a limit left out is none. */
export function useSetBudget() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: Budget) =>
      (await call(client.PUT('/billing/budget', { body, params: { header: { 'Idempotency-Key': newIdempotencyKey() } } })))
        .data,
    onSuccess: (status) => queryClient.setQueryData(billingKeys.budget(), status),
  });
}
