import { useCollection } from '@cloudscape-design/collection-hooks';
import Header from '@cloudscape-design/components/header';
import Pagination from '@cloudscape-design/components/pagination';
import StatusIndicator, { type StatusIndicatorProps } from '@cloudscape-design/components/status-indicator';
import Table from '@cloudscape-design/components/table';
import { useMeteringRecords } from '../api/billing';
import type { MeteringRecord } from '../api/types';
import { EmptyState, LoadError } from '../app/common';
import { strings } from '../i18n/strings';

const l = strings.billing.ledger;

const STATUS: Record<MeteringRecord['state'], StatusIndicatorProps.Type> = {
  PENDING: 'pending',
  SENT: 'in-progress',
  ACCEPTED: 'success',
  DUPLICATE: 'warning',
  FAILED: 'error',
  UNKNOWN: 'warning',
  NOT_SUBSCRIBED: 'stopped',
};

/** In UTC, as AWS's usage reports state the hour, so a record is found on the bill by its hour. */
const utcHour = (iso: string) =>
  new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

/** The month's metering ledger (`month` as `YYYY-MM`), newest hour first, to reconcile with the AWS bill. */
export function MeteringLedger({ month }: { month: string }) {
  const records = useMeteringRecords(month);
  const { items, collectionProps, paginationProps } = useCollection(records.data ?? [], {
    pagination: { pageSize: 24 },
  });
  return (
    <>
      {records.error && (
        <LoadError header={l.loadFailed} error={records.error} onRetry={() => void records.refetch()} testId="ledger-load-error" />
      )}
      <Table<MeteringRecord>
        {...collectionProps}
        data-testid="ledger-table"
        items={items}
        loading={records.isPending}
        loadingText={strings.common.loading}
        trackBy="id"
        ariaLabels={{ tableLabel: l.title }}
        header={
          <Header variant="h2" description={l.description} counter={records.data ? `(${records.data.length})` : undefined}>
            {l.title}
          </Header>
        }
        empty={<EmptyState title={l.empty} subtitle={l.emptyBody} />}
        pagination={<Pagination {...paginationProps} ariaLabels={strings.common.pagination} />}
        wrapLines
        columnDefinitions={[
          { id: 'hour', header: l.columns.hour, cell: (r) => utcHour(r.hour), isRowHeader: true },
          { id: 'dimension', header: l.columns.dimension, cell: (r) => r.dimension },
          { id: 'quantity', header: l.columns.quantity, cell: (r) => r.quantity },
          {
            id: 'state',
            header: l.columns.state,
            cell: (r) => (
              <StatusIndicator type={STATUS[r.state]}>
                <span data-testid={`ledger-state-${r.hour}`}>{l.states[r.state]}</span>
              </StatusIndicator>
            ),
          },
          { id: 'meteringRecordId', header: l.columns.meteringRecordId, cell: (r) => r.meteringRecordId ?? strings.common.none },
          { id: 'attempts', header: l.columns.attempts, cell: (r) => r.attempts },
          { id: 'lastError', header: l.columns.lastError, cell: (r) => r.lastError ?? strings.common.none },
        ]}
      />
    </>
  );
}
