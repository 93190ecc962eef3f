import { useState } from 'react';
import Alert from '@cloudscape-design/components/alert';
import Header from '@cloudscape-design/components/header';
import ProgressBar from '@cloudscape-design/components/progress-bar';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Table from '@cloudscape-design/components/table';
import { useInstanceOperations } from '../api/operations';
import type { Operation } from '../api/types';
import { formatDate, LoadError, StateIndicator } from '../app/common';
import { strings } from '../i18n/strings';

const d = strings.detail;

function percent(op: Operation) {
  return op.progress.totalSteps === 0 ? 0 : Math.round((op.progress.completedSteps / op.progress.totalSteps) * 100);
}

/** The instance's operations (polled while one runs), and the steps of the selected one. */
export function OperationsTab({ instanceId }: { instanceId: string }) {
  const operations = useInstanceOperations(instanceId);
  const [selectedId, setSelectedId] = useState<string | undefined>();
  const items = operations.data ?? [];
  const selected = items.find((o) => o.id === selectedId) ?? items[0];
  return (
    <SpaceBetween size="l">
      {operations.error && <LoadError header={d.operationsFailed} error={operations.error} onRetry={() => void operations.refetch()} />}
      <Table
        data-testid="operations-table"
        header={<Header variant="h2" counter={`(${items.length})`}>{d.operations}</Header>}
        variant="container"
        loading={operations.isPending}
        loadingText={strings.common.loading}
        items={items}
        selectionType="single"
        selectedItems={selected ? [selected] : []}
        onSelectionChange={({ detail }) => setSelectedId(detail.selectedItems[0]?.id)}
        trackBy="id"
        empty={d.noOperations}
        ariaLabels={{
          selectionGroupLabel: d.operations,
          itemSelectionLabel: (_, op) => `${op.type} ${formatDate(op.createdAt)}`,
          tableLabel: d.operations,
        }}
        columnDefinitions={[
          { id: 'type', header: d.opCols.type, cell: (o) => <span data-testid={`operation-type-${o.type}`}>{o.type}</span>, isRowHeader: true },
          { id: 'state', header: d.opCols.state, cell: (o) => <StateIndicator state={o.state} testId={`operation-state-${o.type}`} /> },
          {
            id: 'progress',
            header: d.opCols.progress,
            cell: (o) => (
              <ProgressBar
                value={percent(o)}
                description={d.progress(o.progress.completedSteps, o.progress.totalSteps)}
                ariaLabel={`${o.type} ${d.opCols.progress}`}
              />
            ),
            minWidth: 200,
          },
          { id: 'requestedBy', header: d.opCols.requestedBy, cell: (o) => o.requestedBy },
          { id: 'created', header: d.opCols.created, cell: (o) => formatDate(o.createdAt) },
          { id: 'finished', header: d.opCols.finished, cell: (o) => formatDate(o.finishedAt) },
        ]}
      />
      {selected && (
        <SpaceBetween size="s">
          {selected.reason && (
            <Alert type="info" header={d.operationReason} data-testid="operation-reason">
              {selected.reason}
            </Alert>
          )}
          {selected.error && (
            <Alert type="error" header={d.operationError(selected.error.code)} data-testid="operation-error">
              {selected.error.message}
            </Alert>
          )}
          <Table
            data-testid="operation-steps"
            header={<Header variant="h2" description={`${selected.type} · ${formatDate(selected.createdAt)}`}>{d.steps}</Header>}
            variant="container"
            items={selected.steps}
            columnDefinitions={[
              { id: 'name', header: d.stepCols.name, cell: (s) => s.name, isRowHeader: true },
              { id: 'state', header: d.stepCols.state, cell: (s) => <StateIndicator state={s.state} /> },
              { id: 'attempts', header: d.stepCols.attempts, cell: (s) => s.attempts },
              { id: 'message', header: d.stepCols.message, cell: (s) => s.message ?? strings.common.none },
            ]}
          />
        </SpaceBetween>
      )}
    </SpaceBetween>
  );
}
