import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, collectPages, newIdempotencyKey, useApiClient, type KeelClient } from './client';
import { operationKeys } from './operations';
import type { Instance, InstanceCreation, InstanceState, InstanceUpdate, Operation } from './types';

export const instanceKeys = {
  all: ['instances'] as const,
  list: () => [...instanceKeys.all, 'list'] as const,
  detail: (id: string) => [...instanceKeys.all, 'detail', id] as const,
};

/** States in which the instance changes by itself, so the console polls it. */
export const TRANSITIONAL_STATES: readonly InstanceState[] = ['CREATING', 'CHANGING', 'DELETING'];

export function useInstances() {
  const client = useApiClient();
  return useQuery({
    queryKey: instanceKeys.list(),
    queryFn: () =>
      collectPages(async (cursor) =>
        (await call(client.GET('/instances', { params: { query: { limit: 100, cursor } } }))).data,
      ),
    refetchInterval: (query) =>
      query.state.data?.some((i) => TRANSITIONAL_STATES.includes(i.state)) ? 3000 : false,
  });
}

export interface InstanceWithEtag {
  instance: Instance;
  /** The spec version as a strong ETag, sent back in If-Match on updates. */
  etag: string;
}

export function useInstance(id: string) {
  const client = useApiClient();
  return useQuery({
    queryKey: instanceKeys.detail(id),
    queryFn: async (): Promise<InstanceWithEtag> => {
      const { data, response } = await call(
        client.GET('/instances/{instanceId}', { params: { path: { instanceId: id } } }),
      );
      return { instance: data, etag: response.headers.get('ETag') ?? `"${data.specVersion}"` };
    },
    // A settled instance still changes: brokers report health and their endpoints every 10 s.
    refetchInterval: (query) =>
      query.state.data && TRANSITIONAL_STATES.includes(query.state.data.instance.state) ? 2000 : 10_000,
  });
}

export function useCreateInstance() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: InstanceCreation) =>
      (await call(client.POST('/instances', { body, params: { header: { 'Idempotency-Key': newIdempotencyKey() } } })))
        .data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: instanceKeys.all }),
  });
}

async function patchInstance(client: KeelClient, id: string, patch: InstanceUpdate, etag: string) {
  return (
    await call(
      client.PATCH('/instances/{instanceId}', {
        params: {
          path: { instanceId: id },
          header: { 'Idempotency-Key': newIdempotencyKey(), 'If-Match': etag },
        },
        body: patch,
        headers: { 'Content-Type': 'application/merge-patch+json' },
      }),
    )
  ).data;
}

/** A capacity change: the API answers 202 with the UPDATE operation. */
export function useUpdateInstance(id: string) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ patch, etag }: { patch: InstanceUpdate; etag: string }) =>
      (await patchInstance(client, id, patch, etag)) as Operation,
    onSuccess: () => invalidateInstance(queryClient, id),
  });
}

/** Deletion protection on or off: no operation, the API answers 200 with the instance as it now is. */
export function useSetDeletionProtection(id: string) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ on, etag }: { on: boolean; etag: string }) =>
      (await patchInstance(client, id, { deletionProtection: on }, etag)) as Instance,
    onSuccess: () => invalidateInstance(queryClient, id),
  });
}

/** After a change is accepted: the instance and its operations are stale. */
function invalidateInstance(queryClient: QueryClient, id: string) {
  void queryClient.invalidateQueries({ queryKey: instanceKeys.all });
  void queryClient.invalidateQueries({ queryKey: operationKeys.forInstance(id) });
}

export function useRepairInstance(id: string) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () =>
      (
        await call(
          client.POST('/instances/{instanceId}/repair', {
            params: { path: { instanceId: id }, header: { 'Idempotency-Key': newIdempotencyKey() } },
          }),
        )
      ).data,
    onSuccess: () => invalidateInstance(queryClient, id),
  });
}

/** Deletes the instance; with `purge` (admins only) its data bucket goes at once instead of being kept. */
export function useDeleteInstance(id: string) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (purge: boolean) =>
      (
        await call(
          client.DELETE('/instances/{instanceId}', {
            params: {
              path: { instanceId: id },
              header: { 'Idempotency-Key': newIdempotencyKey() },
              ...(purge ? { query: { purge } } : {}),
            },
          }),
        )
      ).data,
    onSuccess: () => invalidateInstance(queryClient, id),
  });
}
