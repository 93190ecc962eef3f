import { useQuery } from '@tanstack/react-query';
import { call, collectPages, useApiClient } from './client';

export const auditKeys = {
  all: ['audit-events'] as const,
  list: (filter: { resourceType?: string; resourceId?: string } = {}) => [...auditKeys.all, 'list', filter] as const,
};

/** The organization's audit events, newest first (up to 5 pages of 100). */
export function useAuditEvents(filter: { resourceType?: string; resourceId?: string } = {}) {
  const client = useApiClient();
  return useQuery({
    queryKey: auditKeys.list(filter),
    queryFn: () =>
      collectPages(
        async (cursor) =>
          (await call(client.GET('/audit-events', { params: { query: { ...filter, limit: 100, cursor } } }))).data,
        5,
      ),
  });
}
