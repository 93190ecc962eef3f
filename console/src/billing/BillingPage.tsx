import { useMemo, useState } from 'react';
import Box from '@cloudscape-design/components/box';
import Container from '@cloudscape-design/components/container';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import KeyValuePairs from '@cloudscape-design/components/key-value-pairs';
import Link from '@cloudscape-design/components/link';
import Select from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Table from '@cloudscape-design/components/table';
import { useNavigate } from 'react-router';
import { useBudget, useSubscription, useUsage } from '../api/billing';
import type { Usage } from '../api/types';
import { AppShell } from '../app/AppShell';
import { EmptyState, formatDate, LoadError } from '../app/common';
import { strings } from '../i18n/strings';
import { BudgetAlert, BudgetSection } from './BudgetSection';
import { ChargesSection } from './ChargesSection';
import { MeteringLedger } from './MeteringLedger';
import { recentMonths } from './months';
import { SubscriptionAlert, SubscriptionSection } from './SubscriptionSection';
import { UsageChart } from './UsageChart';

const b = strings.billing;

type InstanceUsage = Usage['instances'][number];

const akuHours = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 1 });

export default function BillingPage() {
  const navigate = useNavigate();
  const months = useMemo(() => recentMonths(new Date(), 12), []);
  const [month, setMonth] = useState(months[0]);
  const usage = useUsage(month.from, month.to);
  const budget = useBudget();
  const subscription = useSubscription();
  const marketplace = subscription.data?.subscription;
  const instances = usage.data?.instances ?? [];
  return (
    <AppShell
      breadcrumbs={[{ text: b.title, href: '/billing' }]}
      content={
        <SpaceBetween size="l">
          <Header variant="h1" description={b.description}>
            {b.title}
          </Header>
          <SubscriptionAlert subscription={marketplace} />
          <BudgetAlert status={budget.data} />
          {subscription.error && (
            <LoadError header={b.subscription.loadFailed} error={subscription.error} onRetry={() => void subscription.refetch()} testId="subscription-load-error" />
          )}
          {marketplace && <SubscriptionSection subscription={marketplace} />}
          {budget.error && <LoadError header={b.budget.loadFailed} error={budget.error} onRetry={() => void budget.refetch()} testId="budget-load-error" />}
          {budget.data && <BudgetSection status={budget.data} />}
          <FormField label={b.month}>
            <Select
              data-testid="billing-month"
              selectedOption={{ value: month.from, label: month.label }}
              options={months.map((m) => ({ value: m.from, label: m.label }))}
              onChange={({ detail }) => setMonth(months.find((m) => m.from === detail.selectedOption.value) ?? months[0])}
            />
          </FormField>
          {usage.error && <LoadError header={b.loadFailed} error={usage.error} onRetry={() => void usage.refetch()} />}
          <Container header={<Header variant="h2">{b.summary}</Header>}>
            <KeyValuePairs
              columns={3}
              items={[
                { label: b.total, value: <span data-testid="billing-total">{usage.data ? akuHours(usage.data.akuHours) : strings.common.loading}</span> },
                { label: b.from, value: formatDate(usage.data?.from) },
                { label: b.to, value: formatDate(usage.data?.to) },
              ]}
            />
          </Container>
          <ChargesSection usage={usage.data} trial={subscription.data?.plan === 'TRIAL'} />
          <UsageChart key={month.from} usage={usage} />
          <Table<InstanceUsage>
            data-testid="billing-table"
            items={instances}
            loading={usage.isPending}
            loadingText={strings.common.loading}
            trackBy="instanceId"
            ariaLabels={{ tableLabel: b.byInstance }}
            header={<Header variant="h2" counter={usage.data ? `(${instances.length})` : undefined}>{b.byInstance}</Header>}
            empty={<EmptyState title={b.empty} subtitle={b.emptyBody} />}
            columnDefinitions={[
              {
                id: 'name',
                header: b.columns.instance,
                cell: (i) => (
                  <Link
                    href={`/instances/${i.instanceId}`}
                    onFollow={(event) => {
                      event.preventDefault();
                      navigate(`/instances/${i.instanceId}`);
                    }}
                  >
                    {i.name}
                  </Link>
                ),
              },
              { id: 'akuHours', header: b.columns.akuHours, cell: (i) => <span data-testid={`billing-aku-hours-${i.name}`}>{akuHours(i.akuHours)}</span> },
              {
                id: 'periods',
                header: b.columns.periods,
                cell: (i) => (
                  <Box>
                    {i.periods.map((p) => (
                      <div key={p.from}>{b.period(p.aku, formatDate(p.from), p.running ? b.now : formatDate(p.to))}</div>
                    ))}
                  </Box>
                ),
              },
            ]}
          />
          {subscription.data?.plan === 'MARKETPLACE' && <MeteringLedger month={month.from.slice(0, 7)} />}
        </SpaceBetween>
      }
    />
  );
}
