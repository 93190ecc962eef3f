import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import Container from '@cloudscape-design/components/container';
import Header from '@cloudscape-design/components/header';
import KeyValuePairs from '@cloudscape-design/components/key-value-pairs';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Spinner from '@cloudscape-design/components/spinner';
import Table from '@cloudscape-design/components/table';
import { useEstimate } from '../../api/estimates';
import { useCreationPlan } from '../../api/plans';
import { describeError } from '../../api/problem';
import { FieldErrorList } from '../../app/common';
import type { CostBreakdownLike, EstimateRequest } from './reviewTypes';
import { strings } from '../../i18n/strings';
import { CapacityReadout } from '../CapacityViews';
import { formatNumber, formatUsd } from '../capacity';
import { PlanView } from '../PlanView';
import { toCreation, toEstimateRequest, type SpecDraft } from '../specRules';
import type { StepProps } from './types';

const s = strings.wizard.review;

export function estimateRequestFor(draft: SpecDraft): EstimateRequest {
  const { storage, network, basics } = draft;
  return toEstimateRequest({
    region: basics.region,
    zones: network.zones,
    walType: storage.walType || 'S3',
    aku: Number(storage.aku),
    fsx: { throughputMBps: storage.fsxThroughput, count: Number(storage.fsxCount) },
  });
}

function CostTable({ title, breakdown, testId }: { title: string; breakdown: CostBreakdownLike; testId: string }) {
  return (
    <Table
      data-testid={testId}
      variant="embedded"
      header={<Header variant="h3">{title}</Header>}
      items={breakdown.lines}
      columnDefinitions={[
        { id: 'item', header: s.item, cell: (l) => l.item, isRowHeader: true },
        { id: 'description', header: s.descriptionCol, cell: (l) => l.description },
        { id: 'quantity', header: s.quantity, cell: (l) => `${formatNumber(l.quantity)} ${l.unit}` },
        { id: 'monthly', header: s.monthly, cell: (l) => formatUsd(l.monthlyUsd) },
      ]}
      footer={
        <Box textAlign="right" variant="strong">
          <span data-testid={`${testId}-total`}>
            {s.total}: {formatUsd(breakdown.totalMonthlyUsd)}
          </span>
        </Box>
      }
    />
  );
}

export function CostEstimateView({ request }: { request: EstimateRequest }) {
  const estimate = useEstimate(request);
  return (
    <Container
      data-testid="estimate"
      header={<Header variant="h2" description={s.estimateDescription}>{s.estimate}</Header>}
    >
      {estimate.isPending && <Spinner />}
      {estimate.error && <Alert type="warning" header={s.estimateFailed}>{describeError(estimate.error)}</Alert>}
      {estimate.data && (
        <SpaceBetween size="l">
          <Box variant="h3" data-testid="estimate-savings">
            {s.savings}: {formatNumber(estimate.data.savingsPercent)}% ({formatUsd(estimate.data.diskless.totalMonthlyUsd)} vs{' '}
            {formatUsd(estimate.data.selfManagedKafka.totalMonthlyUsd)})
          </Box>
          <ColumnLayout columns={2}>
            <CostTable title={s.diskless} breakdown={estimate.data.diskless} testId="estimate-diskless" />
            <CostTable title={s.selfManaged} breakdown={estimate.data.selfManagedKafka} testId="estimate-kafka" />
          </ColumnLayout>
        </SpaceBetween>
      )}
    </Container>
  );
}

export function ReviewStep({ draft, catalog, accounts, goToStep, unmatched }: StepProps) {
  const { basics, network, storage } = draft;
  // The same body Create sends: the plan is of exactly what would be created.
  const plan = useCreationPlan(toCreation(draft));
  const account = accounts.find((a) => a.id === basics.cloudAccountId);
  const w = strings.wizard;
  const d = strings.detail;
  return (
    <SpaceBetween size="l">
      {unmatched.length > 0 && (
        <Alert type="error" header={w.apiRejected} data-testid="wizard-unmatched-errors">
          <FieldErrorList errors={unmatched} />
        </Alert>
      )}
      <Container
        header={
          <Header variant="h2" actions={<Button onClick={() => goToStep('basics')}>{s.edit}</Button>}>
            {w.basics.title}
          </Header>
        }
      >
        <KeyValuePairs
          columns={3}
          items={[
            { label: d.name, value: <span data-testid="review-name">{basics.name}</span> },
            { label: d.cloudAccount, value: account?.name ?? basics.cloudAccountId },
            { label: d.region, value: basics.region },
          ]}
        />
      </Container>
      <Container
        header={
          <Header variant="h2" actions={<Button onClick={() => goToStep('network')}>{s.edit}</Button>}>
            {w.network.title}
          </Header>
        }
      >
        <KeyValuePairs
          columns={3}
          items={[
            { label: w.network.zones, value: network.zones },
            { label: d.vpc, value: network.vpcId },
            { label: d.subnets, value: network.subnets.map((sn) => `${sn.availabilityZone}: ${sn.subnetId}`).join(', ') },
          ]}
        />
      </Container>
      <Container
        header={
          <Header variant="h2" actions={<Button onClick={() => goToStep('storage')}>{s.edit}</Button>}>
            {w.storage.title}
          </Header>
        }
      >
        <SpaceBetween size="l">
          <KeyValuePairs
            columns={3}
            items={[
              { label: d.wal, value: <span data-testid="review-wal">{storage.walType}</span> },
              { label: d.aku, value: <span data-testid="review-aku">{storage.aku}</span> },
              ...(storage.walType === 'FSWAL'
                ? [{ label: d.fsx, value: <span data-testid="review-fsx">{d.fsxValue(Number(storage.fsxCount), storage.fsxThroughput)}</span> }]
                : []),
            ]}
          />
          <CapacityReadout aku={Number(storage.aku)} catalog={catalog} testId="review-capacity" />
        </SpaceBetween>
      </Container>
      <CostEstimateView request={estimateRequestFor(draft)} />
      <PlanView query={plan} description={strings.plan.createDescription} />
    </SpaceBetween>
  );
}
