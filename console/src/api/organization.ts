import { useQuery } from '@tanstack/react-query';
import { call, useApiClient } from './client';

export const organizationKeys = {
  all: ['organization'] as const,
  me: (slug: string | undefined) => [...organizationKeys.all, 'me', slug ?? '(default)'] as const,
};

/** The current organization, the caller's role in it and all memberships. */
export function useOrganization(slug: string | undefined) {
  const client = useApiClient();
  return useQuery({
    queryKey: organizationKeys.me(slug),
    queryFn: async () =>
      (await call(client.GET('/organizations/me', slug ? { params: { header: { 'X-Organization': slug } } } : {}))).data,
    staleTime: 60_000,
  });
}
