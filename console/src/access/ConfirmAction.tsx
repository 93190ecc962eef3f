import type { ReactNode } from 'react';
import Box from '@cloudscape-design/components/box';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { ConfirmModal } from '../app/ConfirmModal';
import { RequestError } from './RequestError';

/** Asks to confirm one change to a user, ACL or topic, says what it does, and shows why the API refused it. */
export function ConfirmAction({
  header,
  testId,
  label,
  body,
  loading,
  error,
  disabled,
  onConfirm,
  onClose,
  children,
}: {
  header: string;
  testId: string;
  label: string;
  body: string;
  loading: boolean;
  error: unknown;
  disabled?: boolean;
  onConfirm: () => void;
  onClose: () => void;
  children?: ReactNode;
}) {
  return (
    <ConfirmModal
      header={header}
      testId={`${testId}-modal`}
      onClose={onClose}
      confirm={{ label, testId: `${testId}-confirm`, loading, disabled, onConfirm }}
    >
      <SpaceBetween size="m">
        <Box variant="p">{body}</Box>
        {children}
        <RequestError error={error} />
      </SpaceBetween>
    </ConfirmModal>
  );
}
