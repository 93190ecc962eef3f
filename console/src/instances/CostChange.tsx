import ColumnLayout from '@cloudscape-design/components/column-layout';
import Header from '@cloudscape-design/components/header';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import type { CostEstimate } from '../api/types';
import { strings } from '../i18n/strings';
import { Metric } from './CapacityViews';
import { formatNumber, formatSigned, formatUsd } from './capacity';

const k = strings.detail.update.cost;

interface EstimateQuery {
  data: CostEstimate | undefined;
  error: unknown;
  isPending: boolean;
}

// What the customer pays for the instance: its AWS resources and Keel's fee. The self-managed Kafka comparison is the
// wizard's argument, not the cost of this change.
const monthly = (estimate: CostEstimate) => estimate.diskless.totalMonthlyUsd + estimate.serviceFee.monthlyUsd;

function Total({ query }: { query: EstimateQuery }) {
  if (query.data) return k.perMonth(formatUsd(monthly(query.data)));
  // Why is said once, above the figures (the modal's load error), not in every cell.
  if (query.error) return <StatusIndicator type="warning">{k.unavailable}</StatusIndicator>;
  return <StatusIndicator type="loading">{strings.common.loading}</StatusIndicator>;
}

function Delta({ current, proposed }: { current: EstimateQuery; proposed: EstimateQuery }) {
  if (current.data && proposed.data) {
    const from = monthly(current.data);
    const delta = monthly(proposed.data) - from;
    return k.delta(formatSigned(delta, formatUsd), from > 0 ? formatSigned((delta / from) * 100, formatNumber) : undefined);
  }
  // Each side's own cell says what failed; a difference of a missing side means nothing.
  if (current.error || proposed.error) return strings.common.none;
  return <StatusIndicator type="loading">{strings.common.loading}</StatusIndicator>;
}

/** Today's monthly cost, and, for a proposed update, its cost and what it adds or saves. */
export function CostChange({ current, proposed }: { current: EstimateQuery; proposed: EstimateQuery | undefined }) {
  return (
    <div data-testid="cost-change" aria-live="polite">
      <Header variant="h3" description={k.description}>
        {k.title}
      </Header>
      <ColumnLayout columns={3} variant="text-grid">
        <Metric label={k.current} value={<Total query={current} />} testId="cost-current" />
        {proposed && <Metric label={k.proposed} value={<Total query={proposed} />} testId="cost-proposed" />}
        {proposed && <Metric label={k.change} value={<Delta current={current} proposed={proposed} />} testId="cost-delta" />}
      </ColumnLayout>
    </div>
  );
}
