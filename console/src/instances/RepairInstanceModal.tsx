import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useRepairInstance } from '../api/instances';
import { useRepairPlan } from '../api/plans';
import { describeError } from '../api/problem';
import type { Instance } from '../api/types';
import { ConfirmModal, startAndFollow } from '../app/ConfirmModal';
import { useNotifications } from '../app/notifications';
import { strings } from '../i18n/strings';
import { PlanView } from './PlanView';

const r = strings.detail.repair;

/**
 * Repair on request: shows what the repair would change in the customer's account (the plan without a body) and
 * starts it. With nothing to change there is nothing to start.
 */
export function RepairInstanceModal({ instance, onClose, onStarted }: { instance: Instance; onClose: () => void; onStarted: () => void }) {
  const plan = useRepairPlan(instance.id);
  const repair = useRepairInstance(instance.id);
  const { follow } = useNotifications();
  const nothingToDo = plan.data !== undefined && plan.data.changes.length === 0;
  return (
    <ConfirmModal
      header={r.title}
      testId="repair-instance-modal"
      size="large"
      onClose={onClose}
      confirm={{
        label: r.confirm,
        testId: 'repair-instance-confirm',
        disabled: plan.data === undefined || nothingToDo,
        loading: repair.isPending,
        onConfirm: () => startAndFollow(repair.mutateAsync, follow, { instanceName: instance.name, started: r.started(instance.name) }, onStarted),
      }}
    >
      <SpaceBetween size="m">
        <Box variant="p">{r.body}</Box>
        <PlanView query={plan} description={r.planDescription} variant="embedded" />
        {repair.error && <Alert type="error">{describeError(repair.error)}</Alert>}
      </SpaceBetween>
    </ConfirmModal>
  );
}
