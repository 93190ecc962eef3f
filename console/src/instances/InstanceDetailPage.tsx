import { lazy, Suspense, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import Header from '@cloudscape-design/components/header';
import KeyValuePairs from '@cloudscape-design/components/key-value-pairs';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Spinner from '@cloudscape-design/components/spinner';
import Table from '@cloudscape-design/components/table';
import Tabs from '@cloudscape-design/components/tabs';
import Link from '@cloudscape-design/components/link';
import { AclsTab } from '../access/AclsTab';
import { ConnectTab } from '../access/ConnectTab';
import { TopicsTab } from '../access/TopicsTab';
import { UsersTab } from '../access/UsersTab';
import { useSizingCatalog } from '../api/catalog';
import { useCloudAccounts } from '../api/cloudAccounts';
import { useInstance } from '../api/instances';
import { ApiError } from '../api/problem';
import type { Instance, S3GatewayEndpointMode } from '../api/types';
import { AppShell } from '../app/AppShell';
import { Copyable, formatDate, LoadError, StateIndicator } from '../app/common';
import { useSession } from '../app/session';
import { GracePeriodAlert } from '../billing/SubscriptionSection';
import { strings } from '../i18n/strings';
import { formatNumber } from './capacity';
import { DeleteInstanceModal } from './DeleteInstanceModal';
import { DeletionProtectionToggle } from './DeletionProtectionToggle';
import { InstanceStatusDetail } from './InstanceStatus';
import { OperationsTab } from './OperationsTab';
import { RepairInstanceModal } from './RepairInstanceModal';
import { UpdateAkuModal } from './UpdateAkuModal';

// The charts are the heaviest part of the page: they load when the Metrics tab is first opened.
const MetricsTab = lazy(() => import('./MetricsTab'));

const d = strings.detail;

export function InstanceActions({
  instance,
  onUpdate,
  onRepair,
  onDelete,
}: {
  instance: Instance;
  onUpdate: () => void;
  onRepair: () => void;
  onDelete: () => void;
}) {
  const { canEdit } = useSession();
  if (!canEdit) return null;
  const busy = ['CREATING', 'CHANGING', 'DELETING', 'DELETED'].includes(instance.state);
  return (
    <SpaceBetween direction="horizontal" size="xs">
      <Button data-testid="update-aku" disabled={busy || instance.state !== 'RUNNING'} onClick={onUpdate}>
        {d.updateAku}
      </Button>
      <Button data-testid="repair-instance" disabled={instance.state !== 'RUNNING'} onClick={onRepair}>
        {d.repairAction}
      </Button>
      <Button data-testid="delete-instance" disabled={busy} onClick={onDelete}>
        {d.delete}
      </Button>
    </SpaceBetween>
  );
}

/** The instance's cloud account by name, linked to the accounts; its id while the accounts load or if it is gone. */
function CloudAccountName({ id }: { id: string }) {
  const navigate = useNavigate();
  const account = useCloudAccounts().data?.find((a) => a.id === id);
  if (!account) return <span data-testid="detail-cloud-account">{id}</span>;
  return (
    <Link
      href="/cloud-accounts"
      data-testid="detail-cloud-account"
      onFollow={(event) => {
        event.preventDefault();
        navigate('/cloud-accounts');
      }}
    >
      {account.name}
    </Link>
  );
}

/** The spec's S3 gateway endpoint option in words, with what it means for the brokers' S3 traffic. */
function S3EndpointMode({ mode }: { mode: S3GatewayEndpointMode }) {
  return (
    <SpaceBetween size="xxs">
      <span data-testid="detail-s3-endpoint">{d.s3EndpointModes[mode]}</span>
      <Box variant="small" color="text-body-secondary">
        {strings.wizard.network.s3EndpointModes[mode].description}
      </Box>
    </SpaceBetween>
  );
}

function Overview({ instance, etag }: { instance: Instance; etag: string }) {
  const { spec, capacity, sizing, inventory } = instance;
  return (
    <SpaceBetween size="l">
      <Container header={<Header variant="h2">{d.spec}</Header>}>
        <KeyValuePairs
          columns={4}
          items={[
            { label: d.id, value: <Copyable text={instance.id} /> },
            { label: d.region, value: instance.region },
            { label: d.cloudAccount, value: <CloudAccountName id={instance.cloudAccountId} /> },
            { label: d.vpc, value: spec.network.vpcId },
            { label: d.subnets, value: spec.network.subnets.map((s) => `${s.availabilityZone}: ${s.subnetId}`).join(', ') },
            ...(spec.network.s3GatewayEndpoint
              ? [{ label: strings.wizard.network.s3Endpoint, value: <S3EndpointMode mode={spec.network.s3GatewayEndpoint} /> }]
              : []),
            { label: d.wal, value: <span data-testid="detail-wal">{spec.wal.type}</span> },
            { label: d.aku, value: <span data-testid="detail-aku">{spec.aku}</span> },
            ...(spec.fsx ? [{ label: d.fsx, value: <span data-testid="detail-fsx">{d.fsxValue(spec.fsx.count, spec.fsx.throughputMBps)}</span> }] : []),
            { label: d.brokerVersion, value: spec.brokerVersion },
            { label: d.catalogVersion, value: spec.catalogVersion },
            { label: d.specVersion, value: instance.specVersion },
            { label: strings.instances.columns.created, value: formatDate(instance.createdAt) },
            { label: strings.deletionProtection.label, value: <DeletionProtectionToggle instance={instance} etag={etag} /> },
            ...(instance.dataRetainedUntil
              ? [{ label: d.dataRetainedUntil, value: <span data-testid="detail-data-retained">{formatDate(instance.dataRetainedUntil)}</span> }]
              : []),
          ]}
        />
      </Container>
      <Container header={<Header variant="h2">{strings.capacity.title}</Header>}>
        <KeyValuePairs
          columns={4}
          items={[
            { label: strings.capacity.write, value: <span data-testid="detail-capacity-write">{strings.capacity.mibps(formatNumber(capacity.writeMiBps))}</span> },
            { label: strings.capacity.read, value: strings.capacity.mibps(formatNumber(capacity.readMiBps)) },
            { label: strings.capacity.requests, value: strings.capacity.rps(formatNumber(capacity.requestsPerSecond)) },
            { label: strings.capacity.partitions, value: formatNumber(capacity.partitions) },
          ]}
        />
      </Container>
      <Container header={<Header variant="h2">{d.sizing}</Header>}>
        <KeyValuePairs
          columns={2}
          items={[
            { label: d.instanceType, value: sizing.instanceType },
            { label: d.brokerCount, value: sizing.brokerCount },
          ]}
        />
      </Container>
      <Container header={<Header variant="h2">{d.endpoints}</Header>}>
        <KeyValuePairs
          items={[
            {
              label: d.bootstrap,
              value: inventory.bootstrapServers ? (
                <Copyable text={inventory.bootstrapServers} testId="detail-bootstrap" />
              ) : (
                <Box color="text-status-inactive">{d.noEndpoint}</Box>
              ),
            },
          ]}
        />
      </Container>
      <Table
        header={<Header variant="h2">{d.conditions}</Header>}
        items={instance.conditions}
        variant="container"
        empty={strings.common.none}
        columnDefinitions={[
          { id: 'type', header: d.conditionCols.type, cell: (c) => c.type, isRowHeader: true },
          { id: 'status', header: d.conditionCols.status, cell: (c) => c.status },
          { id: 'reason', header: d.conditionCols.reason, cell: (c) => c.reason },
          { id: 'message', header: d.conditionCols.message, cell: (c) => c.message },
          { id: 'since', header: d.conditionCols.since, cell: (c) => formatDate(c.lastTransitionTime) },
        ]}
      />
    </SpaceBetween>
  );
}

/** The instance's brokers, each with its health and, while a scale-down retires it, its drain. */
export function Brokers({ instance }: { instance: Instance }) {
  return (
    <SpaceBetween size="l">
      <Table
        data-testid="brokers-table"
        header={<Header variant="h2" counter={`(${instance.inventory.brokers.length})`}>{d.brokers}</Header>}
        items={instance.inventory.brokers}
        variant="container"
        empty={d.noBrokers}
        columnDefinitions={[
          { id: 'nodeId', header: d.brokerCols.nodeId, cell: (b) => b.nodeId, isRowHeader: true },
          { id: 'zone', header: d.brokerCols.zone, cell: (b) => b.availabilityZone },
          { id: 'address', header: d.brokerCols.address, cell: (b) => (b.address ? <Copyable text={b.address} /> : '—') },
          { id: 'machine', header: d.brokerCols.machine, cell: (b) => b.machineId ?? '—' },
          {
            id: 'health',
            header: d.brokerCols.health,
            cell: (b) => (
              <SpaceBetween size="xxxs">
                <StateIndicator state={b.health.status} testId={`broker-health-${b.nodeId}`} />
                {b.health.status !== 'HEALTHY' && <Box variant="small">{b.health.message}</Box>}
                {b.drain && (
                  <Box variant="small" data-testid={`broker-drain-${b.nodeId}`}>
                    {d.drain[b.drain.status](b.drain.partitionsRemaining)}
                  </Box>
                )}
              </SpaceBetween>
            ),
          },
          { id: 'reportedAt', header: d.brokerCols.reportedAt, cell: (b) => formatDate(b.health.reportedAt) },
        ]}
      />
      <Table
        header={<Header variant="h2">{d.resources}</Header>}
        items={instance.inventory.resources}
        variant="container"
        empty={strings.common.none}
        columnDefinitions={[
          { id: 'type', header: 'Type', cell: (r) => r.type, isRowHeader: true },
          { id: 'id', header: 'Id', cell: (r) => r.id },
        ]}
      />
    </SpaceBetween>
  );
}

export default function InstanceDetailPage() {
  const { instanceId = '' } = useParams();
  const navigate = useNavigate();
  const query = useInstance(instanceId);
  const catalog = useSizingCatalog();
  const [modal, setModal] = useState<'update' | 'repair' | 'delete' | null>(null);
  const [tab, setTab] = useState('overview');
  const instance = query.data?.instance;
  /** Once a change is accepted, its operation is what the user wants to watch. */
  const showOperations = () => {
    setModal(null);
    setTab('operations');
  };

  let content;
  if (query.error && !instance) {
    const missing = query.error instanceof ApiError && query.error.status === 404;
    content = <LoadError header={missing ? d.notFound : d.loadFailed} error={query.error} onRetry={() => void query.refetch()} />;
  } else if (!instance) {
    content = <Spinner size="large" />;
  } else {
    content = (
      <SpaceBetween size="l">
        {instance.state !== 'DELETED' && <GracePeriodAlert />}
        {query.error && (
          // A refresh failed: the page keeps what it had, and says since when.
          <LoadError
            type="warning"
            header={d.stale(formatDate(new Date(query.dataUpdatedAt).toISOString()))}
            error={query.error}
            testId="instance-stale"
            onRetry={() => void query.refetch()}
          />
        )}
        <Header
          variant="h1"
          description={<InstanceStatusDetail instance={instance} onShowTab={setTab} />}
          actions={
            <InstanceActions
              instance={instance}
              onUpdate={() => setModal('update')}
              onRepair={() => setModal('repair')}
              onDelete={() => setModal('delete')}
            />
          }
        >
          <span data-testid="instance-name">{instance.name}</span>
        </Header>
        <Tabs
          activeTabId={tab}
          i18nStrings={{ scrollLeftAriaLabel: d.tabsScrollLeft, scrollRightAriaLabel: d.tabsScrollRight }}
          onChange={({ detail }) => setTab(detail.activeTabId)}
          tabs={[
            { id: 'overview', label: d.tabs.overview, content: <Overview instance={instance} etag={query.data!.etag} /> },
            { id: 'connect', label: d.tabs.connect, content: <ConnectTab instance={instance} /> },
            { id: 'users', label: d.tabs.users, content: <UsersTab instance={instance} /> },
            { id: 'acls', label: d.tabs.acls, content: <AclsTab instance={instance} /> },
            { id: 'topics', label: d.tabs.topics, content: <TopicsTab instance={instance} /> },
            {
              id: 'metrics',
              label: d.tabs.metrics,
              content: (
                <Suspense fallback={<Spinner size="large" />}>
                  <MetricsTab instanceId={instance.id} />
                </Suspense>
              ),
            },
            { id: 'brokers', label: d.tabs.brokers, content: <Brokers instance={instance} /> },
            { id: 'operations', label: d.tabs.operations, content: <OperationsTab instanceId={instance.id} /> },
          ]}
        />
        {modal === 'update' && catalog.data && query.data && (
          <UpdateAkuModal
            instance={instance}
            etag={query.data.etag}
            catalog={catalog.data}
            onClose={() => setModal(null)}
            onStarted={showOperations}
          />
        )}
        {modal === 'repair' && (
          <RepairInstanceModal
            instance={instance}
            onClose={() => setModal(null)}
            onStarted={showOperations}
          />
        )}
        {modal === 'delete' && (
          <DeleteInstanceModal
            instance={instance}
            onClose={() => setModal(null)}
            onStarted={showOperations}
          />
        )}
      </SpaceBetween>
    );
  }
  return (
    <AppShell
      breadcrumbs={[
        { text: strings.instances.title, href: '/instances' },
        { text: instance?.name ?? instanceId, href: `/instances/${instanceId}` },
      ]}
      content={
        <>
          {content}
          {query.error && !instance && (
            <Box padding={{ top: 'm' }}>
              <Button onClick={() => navigate('/instances')}>{strings.instances.title}</Button>
            </Box>
          )}
        </>
      }
    />
  );
}
