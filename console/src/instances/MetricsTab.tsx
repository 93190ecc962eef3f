import { useState } from 'react';
import Box from '@cloudscape-design/components/box';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import Container from '@cloudscape-design/components/container';
import DateRangePicker, { type DateRangePickerProps } from '@cloudscape-design/components/date-range-picker';
import Header from '@cloudscape-design/components/header';
import LineChart from '@cloudscape-design/components/line-chart';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useInstanceMetrics, type MetricsRange } from '../api/metrics';
import { describeError } from '../api/problem';
import type { MetricName, MetricSeries } from '../api/types';
import { EmptyState } from '../app/common';
import { strings } from '../i18n/strings';
import { formatNumber, inByteUnits } from './capacity';

const m = strings.metrics;

const RELATIVE_OPTIONS: DateRangePickerProps.RelativeOption[] = [
  { key: 'last-15m', amount: 15, unit: 'minute', type: 'relative' },
  { key: 'last-1h', amount: 1, unit: 'hour', type: 'relative' },
  { key: 'last-3h', amount: 3, unit: 'hour', type: 'relative' },
  { key: 'last-12h', amount: 12, unit: 'hour', type: 'relative' },
  { key: 'last-24h', amount: 24, unit: 'hour', type: 'relative' },
  { key: 'last-7d', amount: 7, unit: 'day', type: 'relative' },
];
const DEFAULT_RANGE = RELATIVE_OPTIONS[1];

const UNIT_SECONDS: Record<DateRangePickerProps.TimeUnit, number> = {
  second: 1,
  minute: 60,
  hour: 3600,
  day: 86_400,
  week: 7 * 86_400,
  month: 30 * 86_400,
  year: 365 * 86_400,
};

export function formatBytesPerSecond(value: number): string {
  const [scaled, unit] = inByteUnits(value);
  return m.bytesPerSecond(formatNumber(scaled), unit);
}

interface ChartDefinition {
  id: 'bytes' | 'requests' | 'latency' | 'partitions';
  title: string;
  series: (MetricName & keyof typeof m.series)[];
  format: (value: number) => string;
}

const CHARTS: ChartDefinition[] = [
  { id: 'bytes', title: m.charts.bytes, series: ['bytesInPerSec', 'bytesOutPerSec'], format: formatBytesPerSecond },
  {
    id: 'requests',
    title: m.charts.requests,
    series: ['produceRequestsPerSec', 'fetchRequestsPerSec'],
    format: (v) => m.perSecond(formatNumber(v)),
  },
  { id: 'latency', title: m.charts.latency, series: ['produceLatencyP50Ms', 'produceLatencyP99Ms'], format: (v) => m.ms(formatNumber(v)) },
  {
    id: 'partitions',
    title: m.charts.partitions,
    series: ['partitions', 'underReplicatedPartitions', 'offlinePartitions'],
    format: formatNumber,
  },
];

/** Every chart's metrics, fetched in one request. */
const METRIC_NAMES: MetricName[] = CHARTS.flatMap((c) => c.series);

function toMetricsRange(value: DateRangePickerProps.Value): MetricsRange {
  if (value.type === 'relative') return { type: 'relative', seconds: value.amount * UNIT_SECONDS[value.unit] };
  return { type: 'absolute', from: new Date(value.startDate).toISOString(), to: new Date(value.endDate).toISOString() };
}

function validateRange(value: DateRangePickerProps.Value | null): DateRangePickerProps.ValidationResult {
  if (value?.type === 'relative') return { valid: true };
  // Date.parse of a missing date is NaN, which fails the comparison as well.
  if (value && Date.parse(value.startDate) < Date.parse(value.endDate)) return { valid: true };
  return { valid: false, errorMessage: m.rangeInvalid };
}

/** Times of day within a day's range; with the date once the range spans days. */
function timeTickFormatter(data: MetricSeries | undefined) {
  const spansDays = data !== undefined && Date.parse(data.to) - Date.parse(data.from) > 86_400_000;
  const options: Intl.DateTimeFormatOptions = spansDays
    ? { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' }
    : { hour: '2-digit', minute: '2-digit' };
  return (date: Date) => date.toLocaleString('en-GB', options);
}

/** Each series' peak and latest value in the range, in words: what the plot shows, readable without it. */
function SeriesSummary({ chart, data }: { chart: ChartDefinition; data: MetricSeries }) {
  return (
    <Box variant="small">
      {chart.series
        .map((name) => ({ name, values: (data.series.find((s) => s.name === name)?.points ?? []).map((p) => p.v) }))
        .filter(({ values }) => values.length > 0)
        .map(({ name, values }, i) => {
          const peak = Math.max(...values);
          return (
            <span key={name}>
              {i > 0 && ' · '}
              <span data-testid={`metrics-peak-${name}`} data-value={peak}>
                {m.summary(m.series[name], chart.format(peak), chart.format(values[values.length - 1]))}
              </span>
            </span>
          );
        })}
    </Box>
  );
}

function MetricsChart({
  chart,
  metrics,
}: {
  chart: ChartDefinition;
  metrics: ReturnType<typeof useInstanceMetrics>;
}) {
  const { data, error } = metrics;
  const series = chart.series.map((name) => ({
    type: 'line' as const,
    title: m.series[name],
    data: (data?.series.find((s) => s.name === name)?.points ?? []).map((p) => ({ x: new Date(p.t), y: p.v })),
    valueFormatter: chart.format,
  }));
  let statusType: 'loading' | 'error' | 'finished' = 'finished';
  if (metrics.isPending) statusType = 'loading';
  else if (metrics.isError) statusType = 'error';
  return (
    <Container header={<Header variant="h2">{chart.title}</Header>}>
      <LineChart
        data-testid={`metrics-chart-${chart.id}`}
        // A chart with no points at all shows the empty state rather than a blank plot.
        series={series.some((s) => s.data.length > 0) ? series : []}
        xScaleType="time"
        xDomain={data ? [new Date(data.from), new Date(data.to)] : undefined}
        xTickFormatter={timeTickFormatter(data)}
        yTickFormatter={chart.format}
        height={200}
        hideFilter
        ariaLabel={chart.title}
        i18nStrings={m.chart}
        statusType={statusType}
        loadingText={m.loading}
        errorText={describeError(error)}
        recoveryText={strings.common.retry}
        onRecoveryClick={() => void metrics.refetch()}
        empty={<EmptyState title={m.empty} subtitle={m.emptyBody} />}
      />
      {data && <SeriesSummary chart={chart} data={data} />}
    </Container>
  );
}

/** The instance's broker metrics over a chosen range; a relative range refreshes every 10 s. */
export default function MetricsTab({ instanceId }: { instanceId: string }) {
  const [value, setValue] = useState<DateRangePickerProps.Value>(DEFAULT_RANGE);
  const metrics = useInstanceMetrics(instanceId, toMetricsRange(value), METRIC_NAMES);
  return (
    <div data-testid="metrics-tab">
      <SpaceBetween size="l">
        <Header
          variant="h2"
          description={m.description}
          actions={
            <DateRangePicker
              data-testid="metrics-range"
              value={value}
              onChange={({ detail }) => detail.value && setValue(detail.value)}
              relativeOptions={RELATIVE_OPTIONS}
              isValidRange={validateRange}
              i18nStrings={m.rangePicker}
              showClearButton={false}
            />
          }
        >
          {m.title}
        </Header>
        <ColumnLayout columns={2}>
          {CHARTS.map((chart) => (
            <MetricsChart key={chart.id} chart={chart} metrics={metrics} />
          ))}
        </ColumnLayout>
      </SpaceBetween>
    </div>
  );
}
