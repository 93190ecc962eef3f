import { useState } from 'react';
import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Toggle from '@cloudscape-design/components/toggle';
import { useSetDeletionProtection } from '../api/instances';
import { describeError } from '../api/problem';
import type { Instance } from '../api/types';
import { ConfirmModal } from '../app/ConfirmModal';
import { useNotifications } from '../app/notifications';
import { useSession } from '../app/session';
import { strings } from '../i18n/strings';

const p = strings.deletionProtection;

/**
 * The instance's deletion protection, which editors turn on at once and off only after confirming: turning it off is
 * what makes the instance deletable. Viewers see it.
 */
export function DeletionProtectionToggle({ instance, etag }: { instance: Instance; etag: string }) {
  const { canEdit } = useSession();
  const [confirming, setConfirming] = useState(false);
  const change = useSetDeletionProtection(instance.id);
  const { notify } = useNotifications();
  const set = (on: boolean) =>
    change.mutate(
      { on, etag },
      {
        onSuccess: () => {
          setConfirming(false);
          notify({ type: 'success', content: p.changed(instance.name, on) });
        },
      },
    );
  return (
    <SpaceBetween size="xs">
      <Toggle
        data-testid="deletion-protection-toggle"
        checked={instance.deletionProtection}
        disabled={!canEdit || instance.state === 'DELETED' || change.isPending}
        onChange={({ detail }) => (detail.checked ? set(true) : setConfirming(true))}
      >
        {instance.deletionProtection ? p.on : p.off}
      </Toggle>
      {change.error && !confirming && <Alert type="error" header={p.failed}>{describeError(change.error)}</Alert>}
      {confirming && (
        <ConfirmModal
          header={p.turnOffTitle}
          testId="deletion-protection-off-modal"
          onClose={() => setConfirming(false)}
          confirm={{ label: p.turnOff, testId: 'deletion-protection-off-confirm', loading: change.isPending, onConfirm: () => set(false) }}
        >
          <SpaceBetween size="m">
            <Box variant="p">{p.turnOffBody(instance.name)}</Box>
            {change.error && <Alert type="error" header={p.failed}>{describeError(change.error)}</Alert>}
          </SpaceBetween>
        </ConfirmModal>
      )}
    </SpaceBetween>
  );
}
