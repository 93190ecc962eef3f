import { useState } from 'react';
import BarChart from '@cloudscape-design/components/bar-chart';
import Container from '@cloudscape-design/components/container';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import SegmentedControl from '@cloudscape-design/components/segmented-control';
import Select from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import type { UseQueryResult } from '@tanstack/react-query';
import type { Usage } from '../api/types';
import { EmptyState } from '../app/common';
import { strings } from '../i18n/strings';
import { daysOf, usageByDay, usageByHour } from './usageBuckets';

const c = strings.billing.chart;

type Granularity = 'day' | 'hour';

const dayLabel = (day: Date) => day.toLocaleString('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const hourLabel = (hour: Date) => hour.toLocaleString('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' });
const akuHours = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 1 });

/** Each instance's AKU-hours by hour of `day`, or without one by day of the window's month (the window starts with it). */
function chartSeries(usage: Usage, day: Date | undefined) {
  const month = new Date(usage.from);
  const label = day ? hourLabel : dayLabel;
  return usage.instances.map((instance) => ({
    type: 'bar' as const,
    title: instance.name,
    data: (day ? usageByHour(instance.periods, day) : usageByDay(instance.periods, month)).map((b) => ({ x: label(b.start), y: b.akuHours })),
    valueFormatter: akuHours,
  }));
}

/** The month's AKU-hours by UTC day, or by hour of a chosen day, one stacked bar per instance. */
export function UsageChart({ usage }: { usage: UseQueryResult<Usage> }) {
  const [granularity, setGranularity] = useState<Granularity>('day');
  const [chosenDay, setChosenDay] = useState<string | undefined>(undefined);
  const { data } = usage;
  const days = data ? daysOf(new Date(data.from), new Date(data.to)) : [];
  // The newest day until one is chosen: the one a buyer most likely looks for.
  const day = days.find((d) => d.toISOString() === chosenDay) ?? days[days.length - 1];
  const series = data ? chartSeries(data, granularity === 'hour' ? day : undefined) : [];
  let statusType: 'loading' | 'error' | 'finished' = 'finished';
  if (usage.isPending) statusType = 'loading';
  else if (usage.isError) statusType = 'error';
  return (
    <Container
      header={
        <Header
          variant="h2"
          actions={
            <SegmentedControl
              data-testid="usage-granularity"
              label={c.granularity}
              selectedId={granularity}
              onChange={({ detail }) => setGranularity(detail.selectedId as Granularity)}
              options={[
                { id: 'day', text: c.byDay },
                { id: 'hour', text: c.byHour },
              ]}
            />
          }
        >
          {c.title}
        </Header>
      }
    >
      <SpaceBetween size="m">
        {granularity === 'hour' && day && (
          <FormField label={c.day}>
            <Select
              data-testid="usage-day"
              selectedOption={{ value: day.toISOString(), label: dayLabel(day) }}
              options={days.map((d) => ({ value: d.toISOString(), label: dayLabel(d) }))}
              onChange={({ detail }) => setChosenDay(detail.selectedOption.value)}
            />
          </FormField>
        )}
        <BarChart
          data-testid="usage-chart"
          series={series}
          xScaleType="categorical"
          xTitle={c.xTitle[granularity]}
          yTitle={c.yTitle}
          yTickFormatter={akuHours}
          stackedBars
          hideFilter
          height={240}
          ariaLabel={c.title}
          i18nStrings={c.i18n}
          statusType={statusType}
          loadingText={c.loading}
          // The page says what went wrong, with a retry, above the chart.
          errorText={strings.billing.loadFailed}
          empty={<EmptyState title={c.empty} subtitle={c.emptyBody} />}
        />
      </SpaceBetween>
    </Container>
  );
}
