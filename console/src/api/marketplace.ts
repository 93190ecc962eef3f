import { useMutation, useQuery } from '@tanstack/react-query';
import { call, newIdempotencyKey, useApiClient } from './client';

export const marketplaceKeys = {
  registration: (reference: string) => ['marketplace', 'registration', reference] as const,
};

/** The Marketplace buyer a registration reference stands for, for the signed-in user to confirm. */
export function useRegistration(reference: string | null) {
  const client = useApiClient();
  return useQuery({
    queryKey: marketplaceKeys.registration(reference ?? ''),
    enabled: reference !== null,
    queryFn: async () =>
      (await call(client.GET('/marketplace/registrations/{reference}', { params: { path: { reference: reference! } } })))
        .data,
  });
}

/** Links the registration's subscription to the current organization (admins only). */
export function useLinkRegistration() {
  const client = useApiClient();
  return useMutation({
    mutationFn: async (reference: string) =>
      (
        await call(
          client.POST('/marketplace/registrations', {
            body: { reference },
            params: { header: { 'Idempotency-Key': newIdempotencyKey() } },
          }),
        )
      ).data,
  });
}
