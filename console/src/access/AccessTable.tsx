import type { ReactNode } from 'react';
import { useCollection } from '@cloudscape-design/collection-hooks';
import Button from '@cloudscape-design/components/button';
import Header from '@cloudscape-design/components/header';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Table, { type TableProps } from '@cloudscape-design/components/table';
import { EmptyState, LoadError } from '../app/common';
import { useSavedPreferences } from '../app/tablePreferences';
import { TableFilter, TablePagination, TablePreferences } from '../app/tableParts';
import { strings } from '../i18n/strings';

export interface AccessColumn<T> extends TableProps.ColumnDefinition<T> {
  id: string;
  header: string;
  alwaysVisible?: boolean;
}

/**
 * The table of one kind of item on an instance (users, ACLs, topics): filter, sort, pages, saved preferences,
 * one selected row for the header's actions, and the load error with Retry above what was loaded before.
 */
export function AccessTable<T>({
  preferencesKey,
  testId,
  title,
  description,
  items,
  loading,
  error,
  loadFailed,
  onRefresh,
  columns,
  filterText,
  empty,
  actions,
  selected,
  onSelect,
  trackBy,
}: {
  preferencesKey: string;
  testId: string;
  title: string;
  description: string;
  items: readonly T[] | undefined;
  loading: boolean;
  error: unknown;
  loadFailed: string;
  onRefresh: () => void;
  columns: AccessColumn<T>[];
  /** The text the filter searches in an item. */
  filterText: (item: T) => string;
  empty: { title: string; body: string; action: ReactNode };
  actions: ReactNode;
  /** The selected row, for the header's actions; `onSelect` absent when there are none (viewers). */
  selected: T | undefined;
  onSelect?: (item: T | undefined) => void;
  trackBy: (item: T) => string;
}) {
  const [preferences, setPreferences] = useSavedPreferences(preferencesKey, {
    pageSize: 20,
    wrapLines: false,
    contentDisplay: columns.map((c) => ({ id: c.id, visible: true })),
  });
  const { items: shown, actions: collection, filteredItemsCount, collectionProps, filterProps, paginationProps } = useCollection(
    [...(items ?? [])],
    {
      filtering: {
        filteringFunction: (item, text) => filterText(item).toLowerCase().includes(text.toLowerCase()),
        empty: <EmptyState title={empty.title} subtitle={empty.body} action={empty.action} />,
        noMatch: (
          <EmptyState
            title={strings.common.noMatch}
            subtitle={strings.common.noMatchBody}
            action={<Button onClick={() => collection.setFiltering('')}>{strings.common.clearFilter}</Button>}
          />
        ),
      },
      pagination: { pageSize: preferences.pageSize },
      sorting: {},
    },
  );
  // The row stays selected while it is listed; a deleted item's row goes, and its selection with it.
  const current = selected && items?.find((i) => trackBy(i) === trackBy(selected));
  return (
    <SpaceBetween size="m">
      {Boolean(error) && <LoadError header={loadFailed} error={error} onRetry={onRefresh} testId={`${testId}-error`} />}
      <Table
        {...collectionProps}
        data-testid={testId}
        items={shown}
        trackBy={trackBy}
        loading={loading}
        loadingText={strings.common.loading}
        selectionType={onSelect ? 'single' : undefined}
        selectedItems={current ? [current] : []}
        onSelectionChange={({ detail }) => onSelect?.(detail.selectedItems[0])}
        columnDefinitions={columns}
        columnDisplay={preferences.contentDisplay}
        wrapLines={preferences.wrapLines}
        variant="container"
        ariaLabels={{
          tableLabel: title,
          selectionGroupLabel: title,
          itemSelectionLabel: (_, item) => trackBy(item),
        }}
        header={
          <Header
            variant="h2"
            counter={items ? `(${items.length})` : undefined}
            description={description}
            actions={
              <SpaceBetween direction="horizontal" size="xs">
                <Button iconName="refresh" ariaLabel={strings.common.refresh} onClick={onRefresh} />
                {actions}
              </SpaceBetween>
            }
          >
            {title}
          </Header>
        }
        filter={<TableFilter filterProps={filterProps} matches={filteredItemsCount} />}
        pagination={<TablePagination paginationProps={paginationProps} />}
        preferences={
          <TablePreferences
            preferences={preferences}
            onConfirm={setPreferences}
            columns={columns.map((c) => ({ id: c.id, label: c.header, alwaysVisible: c.alwaysVisible }))}
          />
        }
      />
    </SpaceBetween>
  );
}
