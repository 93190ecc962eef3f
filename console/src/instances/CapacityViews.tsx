import type { ReactNode } from 'react';
import Box from '@cloudscape-design/components/box';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import ProgressBar from '@cloudscape-design/components/progress-bar';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import type { SizingCatalog } from '../api/types';
import { strings } from '../i18n/strings';
import { brokersFor, capacityFor, formatNumber, fsxFit } from './capacity';

const c = strings.capacity;

export function Metric({ label, value, testId }: { label: string; value: ReactNode; testId: string }) {
  return (
    <div>
      <Box variant="awsui-key-label">{label}</Box>
      <div data-testid={testId}>{value}</div>
    </div>
  );
}

/** What `aku` buys, computed from the catalog's AKU definition (never from constants). */
export function CapacityReadout({ aku, catalog, testId = 'capacity' }: { aku: number | undefined; catalog: SizingCatalog; testId?: string }) {
  if (aku === undefined) return null;
  const capacity = capacityFor(aku, catalog);
  const brokers = brokersFor(aku, catalog);
  return (
    <div data-testid={testId} aria-live="polite">
      <ColumnLayout columns={5} variant="text-grid">
        <Metric label={c.write} value={c.mibps(formatNumber(capacity.writeMiBps))} testId={`${testId}-write`} />
        <Metric label={c.read} value={c.mibps(formatNumber(capacity.readMiBps))} testId={`${testId}-read`} />
        <Metric label={c.requests} value={c.rps(formatNumber(capacity.requestsPerSecond))} testId={`${testId}-requests`} />
        <Metric label={c.partitions} value={formatNumber(capacity.partitions)} testId={`${testId}-partitions`} />
        {brokers && (
          <Metric label={c.brokers} value={c.brokerSummary(brokers.brokerCount, brokers.instanceType)} testId={`${testId}-brokers`} />
        )}
      </ColumnLayout>
    </div>
  );
}

/**
 * AKU write need against the FSx file systems' Kafka write capacity. Past 100 % the bar gives way to the true share
 * (a need of 400 % reads as 400 %, not as a full bar) and, unless the form already says it, the fix.
 */
export function FsxCapacityBar({
  aku,
  throughputMBps,
  count,
  catalog,
  showFix = true,
}: {
  aku: number | undefined;
  throughputMBps: number;
  count: number | undefined;
  catalog: SizingCatalog;
  showFix?: boolean;
}) {
  if (aku === undefined || count === undefined || count < 1) return null;
  const fit = fsxFit(aku, throughputMBps, count, catalog);
  if (!fit) return null;
  const percent = Math.round((fit.neededMiBps / fit.availableMiBps) * 100);
  return (
    <div data-testid="fsx-capacity" data-fits={fit.fits} data-percent={percent}>
      <ProgressBar
        value={Math.min(100, percent)}
        status={fit.fits ? 'in-progress' : 'error'}
        resultText={c.fsxOver(formatNumber(percent))}
        label={c.fsxBarLabel}
        description={c.fsxBarDescription(formatNumber(fit.neededMiBps), formatNumber(fit.availableMiBps))}
        additionalInfo={fit.fits ? c.fsxOk : undefined}
        ariaLabel={c.fsxBarLabel}
      />
      {!fit.fits && showFix && (
        <div data-testid="fsx-capacity-fix">
          <StatusIndicator type="error">{`${c.fsxShort}: ${formatNumber(fit.neededMiBps)} > ${formatNumber(fit.availableMiBps)} MiB/s. ${c.fsxFix(fit.fix ?? '')}`}</StatusIndicator>
        </div>
      )}
    </div>
  );
}
