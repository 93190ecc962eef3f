import { useState, type ReactNode } from 'react';
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
import type { CostLine, EstimateAssumptions, EstimateRequest } from '../../api/types';
import { FieldErrorList } from '../../app/common';
import { strings } from '../../i18n/strings';
import { CapacityReadout, Metric } from '../CapacityViews';
import { formatNumber, formatQuantity, formatUsd } from '../capacity';
import { PlanView } from '../PlanView';
import { toCreation, toEstimateRequest, type SpecDraft } from '../specRules';
import { AssumptionsSection } from './EstimateAssumptions';
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
    s3GatewayEndpoint: network.s3GatewayEndpoint,
  });
}

/**
 * One side of the comparison, one line per billed item. Three columns that wrap, one side above the other, so
 * every figure stays in view on a 1280 px screen with the navigation open.
 */
function CostTable({ title, lines, footer, testId }: { title: string; lines: CostLine[]; footer: ReactNode; testId: string }) {
  return (
    <Table
      data-testid={testId}
      variant="embedded"
      wrapLines
      header={<Header variant="h3">{title}</Header>}
      items={lines}
      trackBy="item"
      ariaLabels={{ tableLabel: title }}
      columnDefinitions={[
        { id: 'description', header: s.descriptionCol, cell: (l) => l.description, isRowHeader: true },
        {
          id: 'quantity',
          header: s.quantity,
          cell: (l) => <span data-testid={`${testId}-${l.item}-quantity`}>{formatQuantity(l.quantity, l.unit)}</span>,
        },
        {
          id: 'monthly',
          header: s.monthly,
          cell: (l) => <span data-testid={`${testId}-${l.item}-monthly`}>{formatUsd(l.monthlyUsd)}</span>,
        },
      ]}
      footer={<Box textAlign="right">{footer}</Box>}
    />
  );
}

export function CostEstimateView({ request }: { request: EstimateRequest }) {
  const [assumptions, setAssumptions] = useState<EstimateAssumptions>({});
  const estimate = useEstimate(Object.keys(assumptions).length === 0 ? request : { ...request, assumptions });
  const data = estimate.data;
  return (
    <Container data-testid="estimate" header={<Header variant="h2" description={s.estimateDescription}>{s.estimate}</Header>}>
      {estimate.isPending && <Spinner />}
      {estimate.error && <Alert type="warning" header={s.estimateFailed}>{describeError(estimate.error)}</Alert>}
      {data && (
        <SpaceBetween size="l">
          <ColumnLayout columns={4} variant="text-grid" minColumnWidth={150}>
            <Metric
              label={s.keelTotal}
              value={formatUsd(data.diskless.totalMonthlyUsd + data.serviceFee.monthlyUsd)}
              testId="estimate-keel-total"
            />
            <Metric label={s.kafkaTotal} value={formatUsd(data.selfManagedKafka.totalMonthlyUsd)} testId="estimate-kafka-total" />
            <Metric label={s.savingsWithFee} value={`${formatNumber(data.savingsPercentWithServiceFee)}%`} testId="estimate-savings" />
            <Metric label={s.savingsCloudOnly} value={`${formatNumber(data.savingsPercent)}%`} testId="estimate-savings-cloud" />
          </ColumnLayout>
          <CostTable
            title={s.diskless}
            lines={[...data.diskless.lines, data.serviceFee]}
            testId="estimate-diskless"
            footer={
              <SpaceBetween size="xxs">
                <span data-testid="estimate-diskless-cloud">{s.cloudSubtotal(formatUsd(data.diskless.totalMonthlyUsd))}</span>
                <span data-testid="estimate-fee">{s.feeSubtotal(formatUsd(data.serviceFee.monthlyUsd))}</span>
                <Box variant="strong" data-testid="estimate-diskless-total">
                  {s.total}: {formatUsd(data.diskless.totalMonthlyUsd + data.serviceFee.monthlyUsd)}
                </Box>
              </SpaceBetween>
            }
          />
          <CostTable
            title={s.selfManaged}
            lines={data.selfManagedKafka.lines}
            testId="estimate-kafka"
            footer={
              <Box variant="strong" data-testid="estimate-kafka-table-total">
                {s.total}: {formatUsd(data.selfManagedKafka.totalMonthlyUsd)}
              </Box>
            }
          />
        </SpaceBetween>
      )}
      <Box margin={{ top: 'l' }}>
        <AssumptionsSection value={assumptions} onChange={setAssumptions} listed={data?.assumptions} />
      </Box>
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
          <Header variant="h2" actions={<Button ariaLabel={s.editStep(w.basics.title)} onClick={() => goToStep('basics')}>{s.edit}</Button>}>
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
          <Header variant="h2" actions={<Button ariaLabel={s.editStep(w.network.title)} onClick={() => goToStep('network')}>{s.edit}</Button>}>
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
            {
              label: w.network.s3Endpoint,
              value: <span data-testid="review-s3-endpoint">{w.network.s3EndpointModes[network.s3GatewayEndpoint].label}</span>,
            },
          ]}
        />
      </Container>
      <Container
        header={
          <Header variant="h2" actions={<Button ariaLabel={s.editStep(w.storage.title)} onClick={() => goToStep('storage')}>{s.edit}</Button>}>
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
