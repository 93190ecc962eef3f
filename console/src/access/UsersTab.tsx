import { useState } from 'react';
import Button from '@cloudscape-design/components/button';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useCreateKafkaUser, useDeleteKafkaUser, useKafkaUsers, useRotateKafkaUserPassword } from '../api/kafkaAccess';
import { mapFieldErrors } from '../api/problem';
import type { Instance, KafkaUser, KafkaUserCredentials } from '../api/types';
import { formatDate } from '../app/common';
import { ConfirmModal } from '../app/ConfirmModal';
import { useNotifications } from '../app/notifications';
import { useSession } from '../app/session';
import { strings } from '../i18n/strings';
import { AccessStatus } from './AccessStatus';
import { AccessTable, type AccessColumn } from './AccessTable';
import { ConfirmAction } from './ConfirmAction';
import { OneTimePasswordModal } from './OneTimePasswordModal';
import { RequestError } from './RequestError';
import { UnauthenticatedNotice, isUnauthenticated } from './UnauthenticatedNotice';

const u = strings.access.users;
const t = strings.access.secret;

const COLUMNS: AccessColumn<KafkaUser>[] = [
  { id: 'name', header: u.columns.name, cell: (x) => x.name, sortingField: 'name', isRowHeader: true, alwaysVisible: true },
  { id: 'status', header: u.columns.status, cell: (x) => <AccessStatus item={x} testId={`user-status-${x.name}`} />, sortingField: 'status' },
  { id: 'created', header: u.columns.created, cell: (x) => formatDate(x.createdAt), sortingField: 'createdAt' },
  { id: 'rotated', header: u.columns.rotated, cell: (x) => formatDate(x.passwordRotatedAt), sortingField: 'passwordRotatedAt' },
];

/** The instance's Kafka users: create (the password shown once), rotate a password, delete. */
export function UsersTab({ instance }: { instance: Instance }) {
  const unauthenticated = isUnauthenticated(instance);
  const users = useKafkaUsers(instance.id, !unauthenticated);
  const { canEdit } = useSession();
  const [selected, setSelected] = useState<KafkaUser>();
  const [modal, setModal] = useState<'create' | 'rotate' | 'delete' | null>(null);
  const [shown, setShown] = useState<{ header: string; credentials: KafkaUserCredentials }>();
  if (unauthenticated) return <UnauthenticatedNotice />;

  const createButton = canEdit ? (
    <Button data-testid="create-user" onClick={() => setModal('create')}>
      {u.create}
    </Button>
  ) : null;
  const gone = selected?.status === 'DELETING';
  return (
    <>
      <AccessTable
        preferencesKey="kafka-users"
        testId="users-table"
        title={u.title}
        description={u.description}
        items={users.data}
        loading={users.isPending}
        error={users.error}
        loadFailed={u.loadFailed}
        onRefresh={() => void users.refetch()}
        columns={COLUMNS}
        filterText={(x) => x.name}
        empty={{ title: u.emptyTitle, body: u.emptyBody, action: createButton }}
        trackBy={(x) => x.name}
        selected={selected}
        onSelect={canEdit ? setSelected : undefined}
        actions={
          canEdit && (
            <>
              <Button data-testid="rotate-user" disabled={!selected || gone} onClick={() => setModal('rotate')}>
                {u.rotate}
              </Button>
              <Button data-testid="delete-user" disabled={!selected || gone} onClick={() => setModal('delete')}>
                {u.delete}
              </Button>
              {createButton}
            </>
          )
        }
      />
      {modal === 'create' && (
        <CreateUserModal
          instanceId={instance.id}
          onClose={() => setModal(null)}
          onCreated={(credentials) => {
            setModal(null);
            setShown({ header: t.createdTitle(credentials.user.name), credentials });
          }}
        />
      )}
      {modal === 'rotate' && selected && (
        <RotatePasswordModal
          instanceId={instance.id}
          user={selected}
          onClose={() => setModal(null)}
          onRotated={(credentials) => {
            setModal(null);
            setShown({ header: t.rotatedTitle(credentials.user.name), credentials });
          }}
        />
      )}
      {modal === 'delete' && selected && <DeleteUserModal instanceId={instance.id} user={selected} onClose={() => setModal(null)} />}
      {shown && (
        <OneTimePasswordModal
          header={shown.header}
          instance={instance}
          credentials={{ username: shown.credentials.user.name, password: shown.credentials.password }}
          onClose={() => setShown(undefined)}
        />
      )}
    </>
  );
}

function CreateUserModal({
  instanceId,
  onClose,
  onCreated,
}: {
  instanceId: string;
  onClose: () => void;
  onCreated: (credentials: KafkaUserCredentials) => void;
}) {
  const create = useCreateKafkaUser(instanceId);
  const [name, setName] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const { fields, unmatched } = mapFieldErrors(create.error, ['name']);
  const nameError = submitted && name.trim() === '' ? u.nameRequired : fields.name;
  const submit = () => {
    setSubmitted(true);
    if (name.trim() === '') return;
    create.mutate(name.trim(), { onSuccess: onCreated });
  };
  return (
    <ConfirmModal
      header={u.createTitle}
      testId="create-user-modal"
      onClose={onClose}
      confirm={{ label: strings.common.create, testId: 'create-user-submit', loading: create.isPending, onConfirm: submit }}
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <SpaceBetween size="m">
          <FormField label={u.name} description={u.nameDescription} errorText={nameError} data-testid="user-name-field">
            <Input data-testid="user-name" value={name} ariaLabel={u.name} onChange={({ detail }) => setName(detail.value)} />
          </FormField>
          <RequestError error={create.error} unmatched={unmatched} shownOnFields={Object.keys(fields).length > 0} />
        </SpaceBetween>
      </form>
    </ConfirmModal>
  );
}

function RotatePasswordModal({
  instanceId,
  user,
  onClose,
  onRotated,
}: {
  instanceId: string;
  user: KafkaUser;
  onClose: () => void;
  onRotated: (credentials: KafkaUserCredentials) => void;
}) {
  const rotate = useRotateKafkaUserPassword(instanceId);
  return (
    <ConfirmAction
      header={u.rotateTitle(user.name)}
      testId="rotate-user"
      label={u.rotate}
      body={u.rotateBody}
      loading={rotate.isPending}
      error={rotate.error}
      onClose={onClose}
      onConfirm={() => rotate.mutate(user.name, { onSuccess: onRotated })}
    />
  );
}

function DeleteUserModal({ instanceId, user, onClose }: { instanceId: string; user: KafkaUser; onClose: () => void }) {
  const remove = useDeleteKafkaUser(instanceId);
  const { notify } = useNotifications();
  return (
    <ConfirmAction
      header={u.deleteTitle(user.name)}
      testId="delete-user"
      label={strings.common.delete}
      body={u.deleteBody}
      loading={remove.isPending}
      error={remove.error}
      onClose={onClose}
      onConfirm={() =>
        remove.mutate(user.name, {
          onSuccess: () => {
            notify({ type: 'success', content: u.deleted(user.name) });
            onClose();
          },
        })
      }
    />
  );
}
