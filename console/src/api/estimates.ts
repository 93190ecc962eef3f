import { useQuery } from '@tanstack/react-query';
import { call, useApiClient } from './client';
import type { EstimateRequest } from './types';

export const estimateKeys = {
  all: ['estimates'] as const,
  forSpec: (spec: EstimateRequest) => [...estimateKeys.all, 'spec', spec] as const,
  forInstance: (instanceId: string) => [...estimateKeys.all, 'instance', instanceId] as const,
};

/**
 * Prices a spec that is not created yet. A POST, but read-only (nothing is created), so it is a
 * query keyed by the spec.
 */
export function useEstimate(spec: EstimateRequest | undefined) {
  const client = useApiClient();
  return useQuery({
    queryKey: estimateKeys.forSpec(spec ?? ({} as EstimateRequest)),
    enabled: spec !== undefined,
    queryFn: async () => (await call(client.POST('/estimates', { body: spec as EstimateRequest }))).data,
    staleTime: 5 * 60_000,
  });
}

export function useInstanceEstimate(instanceId: string) {
  const client = useApiClient();
  return useQuery({
    queryKey: estimateKeys.forInstance(instanceId),
    queryFn: async () =>
      (
        await call(
          client.GET('/instances/{instanceId}/cost-estimate', { params: { path: { instanceId } } }),
        )
      ).data,
  });
}
