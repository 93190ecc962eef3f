import { useState } from 'react';
import Button from '@cloudscape-design/components/button';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import Select from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useCreateKafkaTopic, useDeleteKafkaTopic, useKafkaTopics, useUpdateKafkaTopic } from '../api/kafkaAccess';
import { mapFieldErrors, type FieldErrors } from '../api/problem';
import type { Instance, KafkaTopic } from '../api/types';
import { formatDate } from '../app/common';
import { ConfirmModal } from '../app/ConfirmModal';
import { useNotifications } from '../app/notifications';
import { useSession } from '../app/session';
import { strings } from '../i18n/strings';
import { formatBytes } from '../instances/capacity';
import { AccessStatus } from './AccessStatus';
import { AccessTable, type AccessColumn } from './AccessTable';
import { ConfirmAction } from './ConfirmAction';
import { RequestError } from './RequestError';
import {
  API_FIELDS,
  CLEANUP_POLICIES,
  COMPRESSION_TYPES,
  draftOf,
  formatRetention,
  NEW_TOPIC,
  toTopicCreation,
  toTopicUpdate,
  validateTopic,
  type TopicDraft,
} from './topicForm';

const t = strings.access.topics;

const orNone = (value: number | null) => (value === null ? strings.common.none : value);

const COLUMNS: AccessColumn<KafkaTopic>[] = [
  { id: 'name', header: t.columns.name, cell: (x) => x.name, sortingField: 'name', isRowHeader: true, alwaysVisible: true },
  { id: 'status', header: t.columns.status, cell: (x) => <AccessStatus item={x} testId={`topic-status-${x.name}`} />, sortingField: 'status' },
  { id: 'partitions', header: t.columns.partitions, cell: (x) => orNone(x.partitions), sortingField: 'partitions' },
  { id: 'replication', header: t.columns.replication, cell: (x) => orNone(x.replicationFactor), sortingField: 'replicationFactor' },
  { id: 'retention', header: t.columns.retention, cell: (x) => formatRetention(x.retentionMs), sortingField: 'retentionMs' },
  { id: 'size', header: t.columns.size, cell: (x) => (x.sizeBytes === null ? strings.common.none : formatBytes(x.sizeBytes)), sortingField: 'sizeBytes' },
  { id: 'observed', header: t.columns.observed, cell: (x) => (x.observedAt ? formatDate(x.observedAt) : t.notSeen), sortingField: 'observedAt' },
];

/** The instance's topics: create, edit configs and partitions, delete with the name typed. */
export function TopicsTab({ instance }: { instance: Instance }) {
  const topics = useKafkaTopics(instance.id);
  const { canEdit } = useSession();
  const [selected, setSelected] = useState<KafkaTopic>();
  const [modal, setModal] = useState<'create' | 'edit' | 'delete' | null>(null);
  const createButton = canEdit ? (
    <Button data-testid="create-topic" onClick={() => setModal('create')}>
      {t.create}
    </Button>
  ) : null;
  // A topic can change only once it is on the brokers and while no other change is pending on it.
  const settled = selected && (selected.status === 'ACTIVE' || selected.status === 'FAILED') && selected.partitions !== null;
  return (
    <>
      <AccessTable
        preferencesKey="kafka-topics"
        testId="topics-table"
        title={t.title}
        description={t.description}
        items={topics.data}
        loading={topics.isPending}
        error={topics.error}
        loadFailed={t.loadFailed}
        onRefresh={() => void topics.refetch()}
        columns={COLUMNS}
        filterText={(x) => x.name}
        empty={{ title: t.emptyTitle, body: t.emptyBody, action: createButton }}
        trackBy={(x) => x.name}
        selected={selected}
        onSelect={canEdit ? setSelected : undefined}
        actions={
          canEdit && (
            <>
              <Button data-testid="edit-topic" disabled={!settled} onClick={() => setModal('edit')}>
                {t.edit}
              </Button>
              <Button data-testid="delete-topic" disabled={!selected || selected.status === 'DELETING'} onClick={() => setModal('delete')}>
                {t.delete}
              </Button>
              {createButton}
            </>
          )
        }
      />
      {modal === 'create' && <TopicFormModal instanceId={instance.id} onClose={() => setModal(null)} />}
      {modal === 'edit' && selected && <TopicFormModal instanceId={instance.id} topic={selected} onClose={() => setModal(null)} />}
      {modal === 'delete' && selected && <DeleteTopicModal instanceId={instance.id} topic={selected} onClose={() => setModal(null)} />}
    </>
  );
}

const option = (value: string, label = value) => ({ value, label });
const DEFAULT_OPTION = option('', t.brokerDefault);

/** Creates a topic, or with `topic` changes its partitions and configs (only what changed is sent). */
function TopicFormModal({ instanceId, topic, onClose }: { instanceId: string; topic?: KafkaTopic; onClose: () => void }) {
  const create = useCreateKafkaTopic(instanceId);
  const update = useUpdateKafkaTopic(instanceId);
  const mutation = topic ? update : create;
  const { notify } = useNotifications();
  const [draft, setDraft] = useState<TopicDraft>(() => (topic ? draftOf(topic) : NEW_TOPIC));
  const [submitted, setSubmitted] = useState(false);
  const local = submitted ? validateTopic(draft, topic) : {};
  const api = mapFieldErrors(mutation.error, Object.keys(API_FIELDS));
  const apiFields: FieldErrors = {};
  for (const [path, message] of Object.entries(api.fields)) apiFields[API_FIELDS[path]] = message;
  const errorOf = (field: keyof TopicDraft) => local[field] ?? apiFields[field];
  const set = (patch: Partial<TopicDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const submit = () => {
    setSubmitted(true);
    if (Object.keys(validateTopic(draft, topic)).length > 0) return;
    const done = (message: string) => () => {
      notify({ type: 'success', content: message });
      onClose();
    };
    if (topic) {
      const patch = toTopicUpdate(draft, topic);
      if (Object.keys(patch).length === 0) return onClose();
      update.mutate({ topicName: topic.name, patch }, { onSuccess: done(t.updated(topic.name)) });
    } else {
      const body = toTopicCreation(draft);
      create.mutate(body, { onSuccess: done(t.created(body.name)) });
    }
  };
  const selectField = (field: 'cleanupPolicy' | 'compressionType' | 'replicationFactor', label: string, values: readonly string[], description?: string) => (
    <FormField label={label} description={description} errorText={errorOf(field)}>
      <Select
        data-testid={`topic-${field}`}
        ariaLabel={label}
        disabled={field === 'replicationFactor' && topic !== undefined}
        selectedOption={draft[field] === '' ? DEFAULT_OPTION : option(draft[field])}
        options={[DEFAULT_OPTION, ...values.map((v) => option(v))]}
        onChange={({ detail }) => set({ [field]: detail.selectedOption.value ?? '' })}
      />
    </FormField>
  );
  const inputField = (field: 'name' | 'partitions' | 'retentionHours' | 'maxMessageBytes', label: string, description?: string) => (
    <FormField label={label} description={description} errorText={errorOf(field)} data-testid={`topic-${field}-field`}>
      <Input
        data-testid={`topic-${field}`}
        ariaLabel={label}
        value={draft[field]}
        disabled={field === 'name' && topic !== undefined}
        inputMode={field === 'name' ? undefined : 'numeric'}
        onChange={({ detail }) => set({ [field]: detail.value })}
      />
    </FormField>
  );
  return (
    <ConfirmModal
      header={topic ? t.editTitle(topic.name) : t.createTitle}
      testId="topic-form-modal"
      size="medium"
      onClose={onClose}
      confirm={{ label: topic ? t.save : strings.common.create, testId: 'topic-form-submit', loading: mutation.isPending, onConfirm: submit }}
    >
      <SpaceBetween size="m">
        {inputField('name', t.name, topic ? undefined : t.nameDescription)}
        <ColumnLayout columns={2}>
          {inputField('partitions', t.partitions)}
          {selectField('replicationFactor', t.replicationFactor, ['1', '2', '3'], t.replicationDescription)}
          {inputField('retentionHours', t.retention, t.retentionDescription)}
          {selectField('cleanupPolicy', t.cleanupPolicy, CLEANUP_POLICIES)}
          {selectField('compressionType', t.compressionType, COMPRESSION_TYPES)}
          {inputField('maxMessageBytes', t.maxMessageBytes, t.maxMessageBytesDescription)}
        </ColumnLayout>
        <RequestError error={mutation.error} unmatched={api.unmatched} shownOnFields={Object.keys(api.fields).length > 0} />
      </SpaceBetween>
    </ConfirmModal>
  );
}

/** Deleting a topic loses its data: the button waits for the name to be typed. */
function DeleteTopicModal({ instanceId, topic, onClose }: { instanceId: string; topic: KafkaTopic; onClose: () => void }) {
  const remove = useDeleteKafkaTopic(instanceId);
  const { notify } = useNotifications();
  const [typed, setTyped] = useState('');
  return (
    <ConfirmAction
      header={t.deleteTitle(topic.name)}
      testId="delete-topic"
      label={strings.common.delete}
      body={t.deleteBody}
      loading={remove.isPending}
      error={remove.error}
      disabled={typed !== topic.name}
      onClose={onClose}
      onConfirm={() =>
        remove.mutate(topic.name, {
          onSuccess: () => {
            notify({ type: 'success', content: t.deleted(topic.name) });
            onClose();
          },
        })
      }
    >
      <FormField label={t.typeToConfirm(topic.name)}>
        <Input data-testid="delete-topic-typed" value={typed} ariaLabel={t.typeToConfirm(topic.name)} onChange={({ detail }) => setTyped(detail.value)} />
      </FormField>
    </ConfirmAction>
  );
}
