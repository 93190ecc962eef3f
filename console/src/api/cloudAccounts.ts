import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, collectPages, newIdempotencyKey, useApiClient } from './client';
import type { CloudAccountRegistration } from './types';

export const cloudAccountKeys = {
  all: ['cloud-accounts'] as const,
  list: () => [...cloudAccountKeys.all, 'list'] as const,
  detail: (id: string) => [...cloudAccountKeys.all, 'detail', id] as const,
};

export function useCloudAccounts() {
  const client = useApiClient();
  return useQuery({
    queryKey: cloudAccountKeys.list(),
    queryFn: () =>
      collectPages(async (cursor) =>
        (await call(client.GET('/cloud-accounts', { params: { query: { limit: 100, cursor } } }))).data,
      ),
  });
}

export function useRegisterCloudAccount() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: CloudAccountRegistration) =>
      (
        await call(
          client.POST('/cloud-accounts', { body, params: { header: { 'Idempotency-Key': newIdempotencyKey() } } }),
        )
      ).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: cloudAccountKeys.all }),
  });
}

export function useDeleteCloudAccount() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await call(
        client.DELETE('/cloud-accounts/{cloudAccountId}', {
          params: { path: { cloudAccountId: id }, header: { 'Idempotency-Key': newIdempotencyKey() } },
        }),
      );
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: cloudAccountKeys.all }),
  });
}
