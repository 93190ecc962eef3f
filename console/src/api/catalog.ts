import { useQuery } from '@tanstack/react-query';
import { call, useApiClient } from './client';

export const catalogKeys = {
  all: ['catalog'] as const,
  current: () => [...catalogKeys.all, 'current'] as const,
};

/** The current sizing catalog: AKU definition, FSx capacities, WAL types, regions, prices. */
export function useSizingCatalog() {
  const client = useApiClient();
  return useQuery({
    queryKey: catalogKeys.current(),
    queryFn: async () => (await call(client.GET('/sizing/catalog'))).data,
    staleTime: 10 * 60_000,
  });
}
