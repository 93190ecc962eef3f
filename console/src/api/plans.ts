import { useQuery, useQueryClient } from '@tanstack/react-query';
import { call, useApiClient, type KeelClient } from './client';
import type { InstanceCreation, InstanceUpdate } from './types';

export const planKeys = {
  all: ['plans'] as const,
  forCreation: (body: InstanceCreation) => [...planKeys.all, 'creation', body] as const,
  forUpdate: (instanceId: string, patch: InstanceUpdate) => [...planKeys.all, 'instance', instanceId, patch] as const,
  forRepair: (instanceId: string) => [...planKeys.all, 'instance', instanceId, 'repair'] as const,
  forDelete: (instanceId: string, purge: boolean) => [...planKeys.all, 'instance', instanceId, 'delete', purge] as const,
};

function creationPlan(client: KeelClient, body: InstanceCreation) {
  return {
    queryKey: planKeys.forCreation(body),
    queryFn: async () => (await call(client.POST('/instances/plan', { body }))).data,
    // The plan of a new instance depends only on the body and the catalog.
    staleTime: 5 * 60_000,
  };
}

/**
 * The cloud resources creating `body` would make. A POST, but a dry run (viewers may call it
 * too), so it is a query keyed by the body, like an estimate.
 */
export function useCreationPlan(body: InstanceCreation) {
  const client = useApiClient();
  return useQuery(creationPlan(client, body));
}

/**
 * Asks the API whether it would create `body`: the plan when it would, else the API's errors (thrown). The same
 * query as the plan, so the review step finds the answer already there.
 */
export function useCheckCreation() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return (body: InstanceCreation) => queryClient.fetchQuery(creationPlan(client, body));
}

/**
 * The resource changes `patch` would make to the instance. It reads what exists in the
 * customer's account, so it is not cached for long.
 */
export function useUpdatePlan(instanceId: string, patch: InstanceUpdate | undefined) {
  const client = useApiClient();
  return useQuery({
    queryKey: planKeys.forUpdate(instanceId, patch ?? {}),
    enabled: patch !== undefined,
    queryFn: async () =>
      (await call(client.POST('/instances/{instanceId}/plan', { params: { path: { instanceId } }, body: patch }))).data,
  });
}

/** What deleting the instance would do, and until when its data bucket would be kept (not with `purge`). */
export function useDeletePlan(instanceId: string, purge: boolean) {
  const client = useApiClient();
  return useQuery({
    queryKey: planKeys.forDelete(instanceId, purge),
    queryFn: async () =>
      (
        await call(
          client.POST('/instances/{instanceId}/plan', { params: { path: { instanceId }, query: { delete: true, purge } } }),
        )
      ).data,
    staleTime: 0,
  });
}

/** What a repair would change: the drift between the instance's spec and the customer's account now. */
export function useRepairPlan(instanceId: string) {
  const client = useApiClient();
  return useQuery({
    queryKey: planKeys.forRepair(instanceId),
    queryFn: async () =>
      (await call(client.POST('/instances/{instanceId}/plan', { params: { path: { instanceId } } }))).data,
    staleTime: 0,
  });
}
