import { useMutation, useQuery } from '@tanstack/react-query';
import { call, newIdempotencyKey, useApiClient } from './client';

export const marketplaceKeys = {
  registration: (reference: string) => ['marketplace', 'registration', reference] as const,
};

/**
 * The Marketplace buyer a registration reference stands for, for an admin to confirm. The API reads it only with the
 * cookie the registration URL gave this browser: the console calls the API on its own origin (the Vite proxy in
 * development, one host behind the ingress in a deployment), so fetch sends it by itself.
 */
export function useRegistration(reference: string | null, enabled: boolean) {
  const client = useApiClient();
  return useQuery({
    queryKey: marketplaceKeys.registration(reference ?? ''),
    enabled: reference !== null && enabled,
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
