import { useQuery } from '@tanstack/react-query';
import { call, useApiClient } from './client';
import type { OperationState } from './types';

export const operationKeys = {
  all: ['operations'] as const,
  forInstance: (instanceId: string) => [...operationKeys.all, 'instance', instanceId] as const,
  detail: (id: string) => [...operationKeys.all, 'detail', id] as const,
};

export const ACTIVE_OPERATION_STATES: readonly OperationState[] = ['PENDING', 'RUNNING'];

/** An instance's operations, newest first; polls while one is pending or running. */
export function useInstanceOperations(instanceId: string) {
  const client = useApiClient();
  return useQuery({
    queryKey: operationKeys.forInstance(instanceId),
    queryFn: async () =>
      (
        await call(
          client.GET('/instances/{instanceId}/operations', {
            params: { path: { instanceId }, query: { limit: 50 } },
          }),
        )
      ).data.items,
    refetchInterval: (query) =>
      query.state.data?.some((op) => ACTIVE_OPERATION_STATES.includes(op.state)) ? 1500 : false,
  });
}

export function useOperation(id: string | undefined) {
  const client = useApiClient();
  return useQuery({
    queryKey: operationKeys.detail(id ?? ''),
    enabled: id !== undefined,
    queryFn: async () =>
      (await call(client.GET('/operations/{operationId}', { params: { path: { operationId: id ?? '' } } }))).data,
    refetchInterval: (query) =>
      query.state.data && ACTIVE_OPERATION_STATES.includes(query.state.data.state) ? 1500 : false,
  });
}
