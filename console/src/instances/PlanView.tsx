import Alert from '@cloudscape-design/components/alert';
import Header from '@cloudscape-design/components/header';
import StatusIndicator, { type StatusIndicatorProps } from '@cloudscape-design/components/status-indicator';
import Table, { type TableProps } from '@cloudscape-design/components/table';
import type { Plan, PlanAction, PlannedChange } from '../api/types';
import { EmptyState, ErrorDetail } from '../app/common';
import { strings } from '../i18n/strings';

const p = strings.plan;

/** Additions read as success, edits as information, anything that removes a resource as a warning. */
const ACTION_TYPES: Record<PlanAction, StatusIndicatorProps.Type> = {
  CREATE: 'success',
  UPDATE: 'info',
  REPLACE: 'warning',
  DELETE: 'warning',
};

function PlanError({ error }: { error: unknown }) {
  return (
    <Alert type="warning" header={p.failed} data-testid="plan-error">
      <ErrorDetail error={error} />
    </Alert>
  );
}

/** The cloud resource changes of a plan, listed like `terraform plan`. */
export function PlanView({
  query,
  description,
  variant = 'container',
  errorShown = false,
}: {
  query: { data: Plan | undefined; error: unknown; isPending: boolean };
  description: string;
  variant?: TableProps.Variant;
  /** The page already says why the plan failed: the table only says it is missing. */
  errorShown?: boolean;
}) {
  const plan = query.data;
  // A plan of what does not exist yet (a create) has no ids: its Id column is left out.
  const columns: TableProps.ColumnDefinition<PlannedChange>[] = [
    {
      id: 'action',
      header: p.columns.action,
      minWidth: 120,
      cell: (c) => (
        <span data-action={c.action}>
          <StatusIndicator type={ACTION_TYPES[c.action]}>{p.actions[c.action]}</StatusIndicator>
        </span>
      ),
    },
    { id: 'resourceType', header: p.columns.resourceType, cell: (c) => c.resourceType },
    { id: 'name', header: p.columns.name, cell: (c) => c.name, isRowHeader: true },
    { id: 'id', header: p.columns.id, cell: (c) => c.id ?? p.notCreated },
    { id: 'reason', header: p.columns.reason, cell: (c) => c.reason ?? strings.common.none },
  ];
  return (
    <div data-testid="plan">
      <Table
        variant={variant}
        wrapLines
        header={
          <Header
            variant={variant === 'container' ? 'h2' : 'h3'}
            description={description}
            counter={plan && <span data-testid="plan-summary">{`(${p.summary(plan.summary)})`}</span>}
          >
            {p.title}
          </Header>
        }
        loading={query.isPending}
        loadingText={p.loading}
        items={plan?.changes ?? []}
        empty={
          query.error ? (
            errorShown ? <EmptyState title={p.failed} /> : <PlanError error={query.error} />
          ) : (
            <EmptyState title={p.empty} subtitle={p.emptyBody} />
          )
        }
        ariaLabels={{ tableLabel: p.title }}
        columnDefinitions={columns.filter((column) => column.id !== 'id' || plan?.changes.some((c) => c.id !== null))}
      />
    </div>
  );
}
