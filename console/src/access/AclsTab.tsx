import { useState } from 'react';
import Button from '@cloudscape-design/components/button';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import RadioGroup from '@cloudscape-design/components/radio-group';
import Select from '@cloudscape-design/components/select';
import SegmentedControl from '@cloudscape-design/components/segmented-control';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useCreateKafkaAcl, useDeleteKafkaAcl, useKafkaAcls, useKafkaUsers } from '../api/kafkaAccess';
import { mapFieldErrors } from '../api/problem';
import type { Instance, KafkaAcl } from '../api/types';
import { formatDate } from '../app/common';
import { ConfirmModal } from '../app/ConfirmModal';
import { useNotifications } from '../app/notifications';
import { useSession } from '../app/session';
import { strings } from '../i18n/strings';
import { AccessStatus } from './AccessStatus';
import { AccessTable, type AccessColumn } from './AccessTable';
import { CLUSTER_NAME, OPERATIONS, RESOURCE_TYPES, toAclCreation, validateAcl, withResourceType, type AclDraft } from './aclRules';
import { ConfirmAction } from './ConfirmAction';
import { RequestError } from './RequestError';
import { UnauthenticatedNotice, isUnauthenticated } from './UnauthenticatedNotice';

const a = strings.access.acls;

const resourceOf = (x: KafkaAcl) => a.resource(x.resourceType, x.resourceName, x.patternType);
const summaryOf = (x: KafkaAcl) => a.summary(x.permission, x.principal, x.operation, resourceOf(x));

const COLUMNS: AccessColumn<KafkaAcl>[] = [
  { id: 'principal', header: a.columns.principal, cell: (x) => x.principal, sortingField: 'principal', isRowHeader: true, alwaysVisible: true },
  { id: 'permission', header: a.columns.permission, cell: (x) => x.permission, sortingField: 'permission' },
  { id: 'operation', header: a.columns.operation, cell: (x) => x.operation, sortingField: 'operation' },
  { id: 'resource', header: a.columns.resource, cell: resourceOf, sortingComparator: (x, y) => resourceOf(x).localeCompare(resourceOf(y)) },
  { id: 'host', header: a.columns.host, cell: (x) => x.host },
  { id: 'status', header: a.columns.status, cell: (x) => <AccessStatus item={x} testId={`acl-status-${x.id}`} />, sortingField: 'status' },
  { id: 'created', header: a.columns.created, cell: (x) => formatDate(x.createdAt), sortingField: 'createdAt' },
];

/** The instance's ACLs: create one with Kafka's rules offered, delete one. */
export function AclsTab({ instance }: { instance: Instance }) {
  const unauthenticated = isUnauthenticated(instance);
  const acls = useKafkaAcls(instance.id, !unauthenticated);
  const { canEdit } = useSession();
  const [selected, setSelected] = useState<KafkaAcl>();
  const [modal, setModal] = useState<'create' | 'delete' | null>(null);
  if (unauthenticated) return <UnauthenticatedNotice />;

  const createButton = canEdit ? (
    <Button data-testid="create-acl" onClick={() => setModal('create')}>
      {a.create}
    </Button>
  ) : null;
  return (
    <>
      <AccessTable
        preferencesKey="kafka-acls"
        testId="acls-table"
        title={a.title}
        description={a.description}
        items={acls.data}
        loading={acls.isPending}
        error={acls.error}
        loadFailed={a.loadFailed}
        onRefresh={() => void acls.refetch()}
        columns={COLUMNS}
        filterText={summaryOf}
        empty={{ title: a.emptyTitle, body: a.emptyBody, action: createButton }}
        trackBy={(x) => x.id}
        selected={selected}
        onSelect={canEdit ? setSelected : undefined}
        actions={
          canEdit && (
            <>
              <Button data-testid="delete-acl" disabled={!selected || selected.status === 'DELETING'} onClick={() => setModal('delete')}>
                {a.delete}
              </Button>
              {createButton}
            </>
          )
        }
      />
      {modal === 'create' && <CreateAclModal instanceId={instance.id} onClose={() => setModal(null)} />}
      {modal === 'delete' && selected && <DeleteAclModal instanceId={instance.id} acl={selected} onClose={() => setModal(null)} />}
    </>
  );
}

const FIELDS = ['principal', 'resourceType', 'resourceName', 'patternType', 'operation', 'permission', 'host'] as const;

const EMPTY_DRAFT: AclDraft = {
  principal: '',
  resourceType: 'TOPIC',
  resourceName: '',
  patternType: 'LITERAL',
  operation: '',
  permission: 'ALLOW',
  host: '*',
};

const option = (value: string) => ({ value, label: value });

function CreateAclModal({ instanceId, onClose }: { instanceId: string; onClose: () => void }) {
  const create = useCreateKafkaAcl(instanceId);
  // The instance's users as suggestions; any principal may be typed (users made with Kafka's tools, User:*).
  const users = useKafkaUsers(instanceId);
  const [draft, setDraft] = useState<AclDraft>(EMPTY_DRAFT);
  const [submitted, setSubmitted] = useState(false);
  const local = submitted ? validateAcl(draft) : {};
  const api = mapFieldErrors(create.error, FIELDS);
  const errorOf = (field: (typeof FIELDS)[number]) => local[field] ?? api.fields[field];
  const set = (patch: Partial<AclDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const cluster = draft.resourceType === 'CLUSTER';
  const submit = () => {
    setSubmitted(true);
    if (Object.keys(validateAcl(draft)).length > 0) return;
    create.mutate(toAclCreation(draft), { onSuccess: onClose });
  };
  const principals = ['User:*', ...(users.data ?? []).map((x) => `User:${x.name}`)];
  return (
    <ConfirmModal
      header={a.createTitle}
      testId="create-acl-modal"
      size="medium"
      onClose={onClose}
      confirm={{ label: strings.common.create, testId: 'create-acl-submit', loading: create.isPending, onConfirm: submit }}
    >
      <SpaceBetween size="m">
        <FormField label={a.principal} description={a.principalDescription} errorText={errorOf('principal')} data-testid="acl-principal-field">
          <SpaceBetween size="xxs">
            <Input data-testid="acl-principal" value={draft.principal} ariaLabel={a.principal} placeholder="User:orders-service" onChange={({ detail }) => set({ principal: detail.value })} />
            <SpaceBetween direction="horizontal" size="xxs">
              {principals.map((p) => (
                <Button key={p} variant="inline-link" data-testid={`acl-principal-${p}`} onClick={() => set({ principal: p })}>
                  {p}
                </Button>
              ))}
            </SpaceBetween>
          </SpaceBetween>
        </FormField>
        <Segments
          testId="acl-resource-type"
          label={a.resourceType}
          error={errorOf('resourceType')}
          values={RESOURCE_TYPES}
          selected={draft.resourceType}
          onChange={(value) => setDraft((d) => withResourceType(d, value))}
        />
        {!cluster && (
          <FormField label={a.patternType} errorText={errorOf('patternType')}>
            <RadioGroup
              data-testid="acl-pattern-type"
              value={draft.patternType}
              items={(['LITERAL', 'PREFIXED'] as const).map((p) => ({ value: p, label: a.patterns[p] }))}
              onChange={({ detail }) => set({ patternType: detail.value as AclDraft['patternType'] })}
            />
          </FormField>
        )}
        <FormField
          label={a.resourceName}
          description={cluster ? a.clusterName : undefined}
          errorText={errorOf('resourceName')}
          data-testid="acl-resource-name-field"
        >
          <Input
            data-testid="acl-resource-name"
            value={cluster ? CLUSTER_NAME : draft.resourceName}
            disabled={cluster}
            ariaLabel={a.resourceName}
            onChange={({ detail }) => set({ resourceName: detail.value })}
          />
        </FormField>
        <FormField label={a.operation} errorText={errorOf('operation')} data-testid="acl-operation-field">
          <Select
            data-testid="acl-operation"
            ariaLabel={a.operation}
            selectedOption={draft.operation === '' ? null : option(draft.operation)}
            options={OPERATIONS[draft.resourceType].map(option)}
            onChange={({ detail }) => set({ operation: detail.selectedOption.value as AclDraft['operation'] })}
          />
        </FormField>
        <Segments
          testId="acl-permission"
          label={a.permission}
          error={errorOf('permission')}
          values={['ALLOW', 'DENY'] as const}
          selected={draft.permission}
          onChange={(permission) => set({ permission })}
        />
        <FormField label={a.host} description={a.hostDescription} errorText={errorOf('host')} data-testid="acl-host-field">
          <Input data-testid="acl-host" value={draft.host} ariaLabel={a.host} onChange={({ detail }) => set({ host: detail.value })} />
        </FormField>
        <RequestError error={create.error} unmatched={api.unmatched} shownOnFields={Object.keys(api.fields).length > 0} />
      </SpaceBetween>
    </ConfirmModal>
  );
}

/** A choice among a few of Kafka's words, each shown as it is. */
function Segments<T extends string>({
  testId,
  label,
  error,
  values,
  selected,
  onChange,
}: {
  testId: string;
  label: string;
  error: string | undefined;
  values: readonly T[];
  selected: T;
  onChange: (value: T) => void;
}) {
  return (
    <FormField label={label} errorText={error}>
      <SegmentedControl
        data-testid={testId}
        selectedId={selected}
        label={label}
        options={values.map((v) => ({ id: v, text: v }))}
        onChange={({ detail }) => onChange(detail.selectedId as T)}
      />
    </FormField>
  );
}

function DeleteAclModal({ instanceId, acl, onClose }: { instanceId: string; acl: KafkaAcl; onClose: () => void }) {
  const remove = useDeleteKafkaAcl(instanceId);
  const { notify } = useNotifications();
  return (
    <ConfirmAction
      header={a.deleteTitle}
      testId="delete-acl"
      label={strings.common.delete}
      body={a.deleteBody(summaryOf(acl))}
      loading={remove.isPending}
      error={remove.error}
      onClose={onClose}
      onConfirm={() =>
        remove.mutate(acl.id, {
          onSuccess: () => {
            notify({ type: 'success', content: a.deleted });
            onClose();
          },
        })
      }
    />
  );
}
