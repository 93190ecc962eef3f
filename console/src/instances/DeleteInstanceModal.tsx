import { useState } from 'react';
import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Checkbox from '@cloudscape-design/components/checkbox';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import { useDeleteInstance } from '../api/instances';
import { useDeletePlan } from '../api/plans';
import { describeError } from '../api/problem';
import type { Instance } from '../api/types';
import { formatDate } from '../app/common';
import { ConfirmModal, startAndFollow } from '../app/ConfirmModal';
import { useNotifications } from '../app/notifications';
import { useSession } from '../app/session';
import { strings } from '../i18n/strings';

const m = strings.detail.deleteModal;

/**
 * Delete with additional confirmation: the button stays disabled until the name is typed, and while deletion
 * protection is on. Says until when the data bucket is kept, as the delete plan has it; admins may purge it instead.
 */
export function DeleteInstanceModal({ instance, onClose, onStarted }: { instance: Instance; onClose: () => void; onStarted: () => void }) {
  const [typed, setTyped] = useState('');
  const [purge, setPurge] = useState(false);
  const { role } = useSession();
  const plan = useDeletePlan(instance.id, purge);
  const remove = useDeleteInstance(instance.id);
  const { follow } = useNotifications();
  const confirmed = typed === instance.name && !instance.deletionProtection;
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
        onConfirm: () =>
          startAndFollow(() => remove.mutateAsync(purge), follow, { instanceName: instance.name, started: m.started(instance.name) }, onStarted),
      }}
    >
      <SpaceBetween size="m">
        {instance.deletionProtection && (
          <Alert type="warning" header={m.protectedHeader} data-testid="delete-instance-protected">
            {m.protectedBody(instance.name)}
          </Alert>
        )}
        <Box variant="p">{m.body(instance.name)}</Box>
        <Box variant="p" data-testid="delete-instance-retention">
          <Retention purge={purge} plan={plan} />
        </Box>
        {role === 'admin' && (
          <FormField description={m.purgeDescription}>
            <Checkbox data-testid="delete-instance-purge" checked={purge} onChange={({ detail }) => setPurge(detail.checked)}>
              {m.purge}
            </Checkbox>
          </FormField>
        )}
        <FormField label={m.typeToConfirm(instance.name)}>
          <Input data-testid="delete-instance-typed" value={typed} onChange={({ detail }) => setTyped(detail.value)} ariaLabel={m.typeToConfirm(instance.name)} />
        </FormField>
        {remove.error && <Alert type="error">{describeError(remove.error)}</Alert>}
      </SpaceBetween>
    </ConfirmModal>
  );
}

function Retention({ purge, plan }: { purge: boolean; plan: ReturnType<typeof useDeletePlan> }) {
  if (purge) return <>{m.purged}</>;
  if (plan.error) return <StatusIndicator type="warning">{`${m.retentionFailed}: ${describeError(plan.error)}`}</StatusIndicator>;
  if (!plan.data) return <StatusIndicator type="loading">{m.retentionLoading}</StatusIndicator>;
  return plan.data.dataRetainedUntil ? <>{m.retained(formatDate(plan.data.dataRetainedUntil))}</> : <>{m.purged}</>;
}
