import { useState } from 'react';
import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useDeleteInstance } from '../api/instances';
import { describeError } from '../api/problem';
import type { Instance } from '../api/types';
import { ConfirmModal, startAndFollow } from '../app/ConfirmModal';
import { useNotifications } from '../app/notifications';
import { strings } from '../i18n/strings';

const m = strings.detail.deleteModal;

/** Delete with additional confirmation: the button stays disabled until the name is typed. */
export function DeleteInstanceModal({ instance, onClose, onStarted }: { instance: Instance; onClose: () => void; onStarted: () => void }) {
  const [typed, setTyped] = useState('');
  const remove = useDeleteInstance(instance.id);
  const { follow } = useNotifications();
  const confirmed = typed === instance.name;
  return (
    <ConfirmModal
      header={m.title}
      testId="delete-instance-modal"
      onClose={onClose}
      confirm={{
        label: strings.common.delete,
        testId: 'delete-instance-confirm',
        disabled: !confirmed,
        loading: remove.isPending,
        onConfirm: () => startAndFollow(remove.mutateAsync, follow, { instanceName: instance.name, started: m.started(instance.name) }, onStarted),
      }}
    >
      <SpaceBetween size="m">
        <Box variant="p">{m.body(instance.name)}</Box>
        <FormField label={m.typeToConfirm(instance.name)}>
          <Input data-testid="delete-instance-typed" value={typed} onChange={({ detail }) => setTyped(detail.value)} ariaLabel={m.typeToConfirm(instance.name)} />
        </FormField>
        {remove.error && <Alert type="error">{describeError(remove.error)}</Alert>}
      </SpaceBetween>
    </ConfirmModal>
  );
}
