import type { ReactNode } from 'react';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Modal, { type ModalProps } from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { strings } from '../i18n/strings';
import type { Operation } from '../api/types';
import type { StartedChange } from './notifications';

/**
 * Runs `start` (a mutation that queues an operation); once accepted, follows the change in the Flashbar until it
 * ends and calls `onStarted`. A refusal stays in the modal, which shows the mutation's error.
 */
export function startAndFollow(
  start: () => Promise<Operation>,
  follow: (change: StartedChange) => void,
  change: Omit<StartedChange, 'operation'>,
  onStarted: () => void,
) {
  void start().then((operation) => {
    follow({ ...change, operation });
    onStarted();
  }, () => undefined);
}

/** A modal that asks to confirm one change: Cancel, and the primary action in the footer. */
export function ConfirmModal({
  header,
  testId,
  size,
  onClose,
  confirm,
  children,
}: {
  header: string;
  testId: string;
  size?: ModalProps.Size;
  onClose: () => void;
  confirm: { label: string; testId: string; onConfirm: () => void; loading: boolean; disabled?: boolean };
  children: ReactNode;
}) {
  return (
    <Modal
      closeAriaLabel={strings.common.close}
      visible
      onDismiss={onClose}
      header={header}
      size={size}
      data-testid={testId}
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" onClick={onClose}>
              {strings.common.cancel}
            </Button>
            <Button
              variant="primary"
              data-testid={confirm.testId}
              disabled={confirm.disabled ?? false}
              loading={confirm.loading}
              onClick={confirm.onConfirm}
            >
              {confirm.label}
            </Button>
          </SpaceBetween>
        </Box>
      }
    >
      {children}
    </Modal>
  );
}
