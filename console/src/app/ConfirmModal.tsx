import type { ReactNode } from 'react';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Modal, { type ModalProps } from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { strings } from '../i18n/strings';
import type { Notice } from './notifications';

/**
 * Runs `start` (a mutation that queues an operation); once accepted, puts `started` in the Flashbar and calls
 * `onStarted`. A refusal stays in the modal, which shows the mutation's error.
 */
export function startAndNotify(start: () => Promise<unknown>, notify: (notice: Notice) => void, started: Notice, onStarted: () => void) {
  void start().then(() => {
    notify(started);
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
