import { useCollection } from '@cloudscape-design/collection-hooks';
import Header from '@cloudscape-design/components/header';
import Pagination from '@cloudscape-design/components/pagination';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Table from '@cloudscape-design/components/table';
import TextFilter from '@cloudscape-design/components/text-filter';
import { useAuditEvents } from '../api/audit';
import type { AuditEvent } from '../api/types';
import { AppShell } from '../app/AppShell';
import { EmptyState, formatDate, LoadError } from '../app/common';
import { strings } from '../i18n/strings';

const a = strings.audit;

function summarize(event: AuditEvent): string {
  const before = event.before ?? {};
  const after = event.after ?? {};
  const keys = Object.keys(after).filter((k) => typeof after[k] !== 'object' && JSON.stringify(before[k]) !== JSON.stringify(after[k]));
  if (event.before === null) return 'created';
  if (event.after === null) return 'deleted';
  return keys.map((k) => `${k}: ${JSON.stringify(before[k] ?? null)} → ${JSON.stringify(after[k])}`).join(', ') || strings.common.none;
}

export default function AuditLogPage() {
  const events = useAuditEvents();
  const { items, collectionProps, filterProps, paginationProps, filteredItemsCount } = useCollection(events.data ?? [], {
    filtering: {
      filteringFunction: (e, text) =>
        [e.action, e.actor.username, e.resourceType, e.resourceId].some((v) => v.toLowerCase().includes(text.toLowerCase())),
      empty: <EmptyState title={a.empty} />,
      noMatch: <EmptyState title={strings.common.noMatch} />,
    },
    pagination: { pageSize: 25 },
    sorting: { defaultState: { sortingColumn: { sortingField: 'occurredAt' }, isDescending: true } },
  });
  return (
    <AppShell
      contentType="table"
      breadcrumbs={[{ text: a.title, href: '/audit' }]}
      content={
        <SpaceBetween size="m">
          {events.error && <LoadError header={a.loadFailed} error={events.error} onRetry={() => void events.refetch()} />}
          <Table
            {...collectionProps}
            data-testid="audit-table"
            variant="full-page"
            items={items}
            loading={events.isPending}
            loadingText={strings.common.loading}
            ariaLabels={{ tableLabel: a.title }}
            header={
              <Header variant="awsui-h1-sticky" description={a.description} counter={events.data ? `(${events.data.length})` : undefined}>
                {a.title}
              </Header>
            }
            filter={
              <TextFilter
                {...filterProps}
                filteringPlaceholder="Find by action, actor or resource"
                filteringAriaLabel="Find by action, actor or resource"
                countText={strings.common.matches(filteredItemsCount ?? 0)}
              />
            }
            pagination={<Pagination {...paginationProps} ariaLabels={strings.common.pagination} />}
            wrapLines
            columnDefinitions={[
              { id: 'time', header: a.columns.time, cell: (e) => formatDate(e.occurredAt), sortingField: 'occurredAt' },
              { id: 'actor', header: a.columns.actor, cell: (e) => e.actor.username, sortingComparator: (x, y) => x.actor.username.localeCompare(y.actor.username) },
              { id: 'action', header: a.columns.action, cell: (e) => e.action, sortingField: 'action', isRowHeader: true },
              { id: 'resourceType', header: a.columns.resourceType, cell: (e) => e.resourceType },
              { id: 'resource', header: a.columns.resource, cell: (e) => e.resourceId },
              { id: 'change', header: a.columns.change, cell: summarize },
              { id: 'requestId', header: a.columns.requestId, cell: (e) => e.requestId ?? strings.common.none },
            ]}
          />
        </SpaceBetween>
      }
    />
  );
}
