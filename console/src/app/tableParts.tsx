import type { UseCollectionResult } from '@cloudscape-design/collection-hooks';
import CollectionPreferences, { type CollectionPreferencesProps } from '@cloudscape-design/components/collection-preferences';
import Pagination from '@cloudscape-design/components/pagination';
import TextFilter from '@cloudscape-design/components/text-filter';
import { strings } from '../i18n/strings';

type Collection = UseCollectionResult<unknown>;

/** A table's filter by name, with how many items match. */
export function TableFilter({ filterProps, matches }: { filterProps: Collection['filterProps']; matches: number | undefined }) {
  return (
    <TextFilter
      {...filterProps}
      filteringPlaceholder={strings.common.filterPlaceholder}
      filteringAriaLabel={strings.common.filterPlaceholder}
      countText={strings.common.matches(matches ?? 0)}
    />
  );
}

export function TablePagination({ paginationProps }: { paginationProps: Collection['paginationProps'] }) {
  return <Pagination {...paginationProps} ariaLabels={strings.common.pagination} />;
}

/** A table's page size, line wrapping and visible columns (saved by `useSavedPreferences`). */
export function TablePreferences({
  preferences,
  onConfirm,
  columns,
}: {
  preferences: CollectionPreferencesProps.Preferences;
  onConfirm: (preferences: CollectionPreferencesProps.Preferences) => void;
  columns: CollectionPreferencesProps.ContentDisplayOption[];
}) {
  return (
    <CollectionPreferences
      title={strings.common.preferences}
      confirmLabel={strings.common.confirm}
      cancelLabel={strings.common.cancel}
      preferences={preferences}
      onConfirm={({ detail }) => onConfirm(detail)}
      pageSizePreference={{ title: strings.common.pageSize, options: [10, 20, 50].map((n) => ({ value: n, label: `${n}` })) }}
      wrapLinesPreference={{ label: strings.common.wrapLines }}
      contentDisplayPreference={{ title: strings.common.visibleColumns, options: columns }}
    />
  );
}
