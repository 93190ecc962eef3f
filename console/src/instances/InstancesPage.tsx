import { useNavigate } from 'react-router';
import { useCollection } from '@cloudscape-design/collection-hooks';
import Button from '@cloudscape-design/components/button';
import Header from '@cloudscape-design/components/header';
import Link from '@cloudscape-design/components/link';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Table, { type TableProps } from '@cloudscape-design/components/table';
import { useInstances } from '../api/instances';
import type { Instance } from '../api/types';
import { AppShell } from '../app/AppShell';
import { EmptyState, formatDate, LoadError } from '../app/common';
import { useSession } from '../app/session';
import { useSavedPreferences } from '../app/tablePreferences';
import { TableFilter, TablePagination, TablePreferences } from '../app/tableParts';
import { GracePeriodAlert } from '../billing/SubscriptionSection';
import { strings } from '../i18n/strings';
import { InstanceStatus } from './InstanceStatus';

const s = strings.instances;

export function instanceColumns(onOpen: (id: string) => void): TableProps.ColumnDefinition<Instance>[] {
  return [
    {
      id: 'state',
      header: s.columns.state,
      cell: (i) => <InstanceStatus instance={i} testId={`instance-state-${i.name}`} />,
      sortingField: 'state',
    },
    {
      id: 'name',
      header: s.columns.name,
      cell: (i) => (
        <Link
          href={`/instances/${i.id}`}
          data-testid={`instance-link-${i.name}`}
          onFollow={(e) => {
            e.preventDefault();
            onOpen(i.id);
          }}
        >
          {i.name}
        </Link>
      ),
      sortingField: 'name',
      isRowHeader: true,
    },
    { id: 'wal', header: s.columns.wal, cell: (i) => i.spec.wal.type, sortingComparator: (a, b) => a.spec.wal.type.localeCompare(b.spec.wal.type) },
    { id: 'zones', header: s.columns.zones, cell: (i) => i.spec.network.subnets.length, sortingComparator: (a, b) => a.spec.network.subnets.length - b.spec.network.subnets.length },
    { id: 'aku', header: s.columns.aku, cell: (i) => i.spec.aku, sortingComparator: (a, b) => a.spec.aku - b.spec.aku },
    { id: 'region', header: s.columns.region, cell: (i) => i.region, sortingField: 'region' },
    { id: 'created', header: s.columns.created, cell: (i) => formatDate(i.createdAt), sortingField: 'createdAt' },
  ];
}

const COLUMN_OPTIONS = [
  { id: 'state', label: s.columns.state, alwaysVisible: true },
  { id: 'name', label: s.columns.name, alwaysVisible: true },
  { id: 'wal', label: s.columns.wal },
  { id: 'zones', label: s.columns.zones },
  { id: 'aku', label: s.columns.aku },
  { id: 'region', label: s.columns.region },
  { id: 'created', label: s.columns.created },
];

export default function InstancesPage() {
  const navigate = useNavigate();
  const { canEdit } = useSession();
  const instances = useInstances();
  const [preferences, setPreferences] = useSavedPreferences('instances', {
    pageSize: 20,
    wrapLines: false,
    contentDisplay: COLUMN_OPTIONS.map((c) => ({ id: c.id, visible: true })),
  });
  const createButton = canEdit ? (
    <Button variant="primary" data-testid="create-instance" onClick={() => navigate('/instances/create')}>
      {s.create}
    </Button>
  ) : null;
  const { items, actions, filteredItemsCount, collectionProps, filterProps, paginationProps } = useCollection(
    instances.data ?? [],
    {
      filtering: {
        filteringFunction: (item, text) => item.name.toLowerCase().includes(text.toLowerCase()),
        empty: <EmptyState title={s.emptyTitle} subtitle={s.emptyBody} action={createButton} />,
        noMatch: (
          <EmptyState
            title={strings.common.noMatch}
            subtitle={strings.common.noMatchBody}
            action={<Button onClick={() => actions.setFiltering('')}>{strings.common.clearFilter}</Button>}
          />
        ),
      },
      pagination: { pageSize: preferences.pageSize },
      sorting: { defaultState: { sortingColumn: { sortingField: 'createdAt' }, isDescending: true } },
    },
  );
  return (
    <AppShell
      contentType="table"
      breadcrumbs={[{ text: s.title, href: '/instances' }]}
      content={
        <SpaceBetween size="m">
          <GracePeriodAlert />
          {instances.error && <LoadError header={s.loadFailed} error={instances.error} onRetry={() => void instances.refetch()} />}
          <Table
            {...collectionProps}
            data-testid="instances-table"
            items={items}
            loading={instances.isPending}
            loadingText={strings.common.loading}
            columnDefinitions={instanceColumns((id) => navigate(`/instances/${id}`))}
            columnDisplay={preferences.contentDisplay}
            wrapLines={preferences.wrapLines}
            variant="full-page"
            stickyHeader
            ariaLabels={{ tableLabel: s.title }}
            header={
              <Header
                variant="awsui-h1-sticky"
                counter={instances.data ? `(${instances.data.length})` : undefined}
                description={s.description}
                actions={
                  <SpaceBetween direction="horizontal" size="xs">
                    <Button iconName="refresh" ariaLabel={strings.common.refresh} onClick={() => void instances.refetch()} />
                    {createButton}
                  </SpaceBetween>
                }
              >
                {s.title}
              </Header>
            }
            filter={<TableFilter filterProps={filterProps} matches={filteredItemsCount} />}
            pagination={<TablePagination paginationProps={paginationProps} />}
            preferences={<TablePreferences preferences={preferences} onConfirm={setPreferences} columns={COLUMN_OPTIONS} />}
          />
        </SpaceBetween>
      }
    />
  );
}
