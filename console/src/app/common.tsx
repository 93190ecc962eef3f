import { useEffect, useState, type ReactNode } from 'react';
import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import CopyToClipboard from '@cloudscape-design/components/copy-to-clipboard';
import StatusIndicator, { type StatusIndicatorProps } from '@cloudscape-design/components/status-indicator';
import { ApiError, describeError } from '../api/problem';
import type { FieldError } from '../api/types';
import { fieldName, inWords } from '../i18n/fieldNames';
import { strings } from '../i18n/strings';

const STATUS_TYPES: Record<string, StatusIndicatorProps.Type> = {
  CREATING: 'in-progress',
  CHANGING: 'in-progress',
  DELETING: 'in-progress',
  RUNNING: 'success',
  DELETED: 'stopped',
  FAILED: 'error',
  PENDING: 'pending',
  SUCCEEDED: 'success',
  CANCELLED: 'stopped',
  SKIPPED: 'stopped',
  PENDING_VERIFICATION: 'pending',
  VERIFIED: 'success',
  VERIFICATION_FAILED: 'error',
  HEALTHY: 'success',
  UNHEALTHY: 'error',
  STARTING: 'in-progress',
  ACTIVE: 'success',
  UPDATING: 'in-progress',
  RESTORING: 'in-progress',
};

/** A state as a Cloudscape status indicator (icon + word, never color alone). */
export function StateIndicator({ state, testId }: { state: string; testId?: string }) {
  return (
    <span data-testid={testId} data-state={state}>
      <StatusIndicator type={STATUS_TYPES[state] ?? 'info'}>{strings.states[state] ?? state}</StatusIndicator>
    </span>
  );
}

export function EmptyState({ title, subtitle, action }: { title: string; subtitle?: string; action?: ReactNode }) {
  return (
    <Box textAlign="center" color="inherit">
      <Box variant="strong" textAlign="center" color="inherit">
        {title}
      </Box>
      <Box variant="p" padding={{ bottom: 's' }} color="inherit">
        {subtitle}
      </Box>
      {action}
    </Box>
  );
}

/** The API's field errors as `field: message` lines, in words, for errors no form field shows. */
export function FieldErrorList({ errors }: { errors: readonly FieldError[] }) {
  return (
    <ul>
      {errors.map((e) => (
        <li key={`${e.field}:${e.message}`}>{`${fieldName(e.field)}: ${inWords(e.message)}`}</li>
      ))}
    </ul>
  );
}

/** What went wrong with a request: the API's field errors when it named fields, else one line. */
export function ErrorDetail({ error }: { error: unknown }) {
  return error instanceof ApiError && error.fieldErrors.length > 0 ? <FieldErrorList errors={error.fieldErrors} /> : <>{describeError(error)}</>;
}

/** A page or a part of one whose data could not be loaded: what went wrong, once, and a way to ask again. */
export function LoadError({
  header,
  error,
  onRetry,
  testId = 'load-error',
  type = 'error',
}: {
  header: string;
  error: unknown;
  onRetry: () => void;
  testId?: string;
  /** `warning` when what was loaded before is still shown. */
  type?: 'error' | 'warning';
}) {
  return (
    <Alert
      type={type}
      header={header}
      data-testid={testId}
      action={
        <Button data-testid={`${testId}-retry`} onClick={onRetry}>
          {strings.common.retry}
        </Button>
      }
    >
      <ErrorDetail error={error} />
    </Alert>
  );
}

/**
 * `value` once it has stopped changing for `delayMs`, e.g. to ask the API only about what the
 * user settled on. Compared by content, so an equal value built anew on each render does not
 * restart the wait.
 */
export function useDebouncedValue<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  const key = JSON.stringify(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [key, delayMs]);
  return settled;
}

export function Copyable({ text, testId }: { text: string; testId?: string }) {
  return (
    <span data-testid={testId}>
      <CopyToClipboard
        variant="inline"
        textToCopy={text}
        copyButtonAriaLabel={strings.common.copy}
        copySuccessText={strings.common.copied}
        copyErrorText={strings.common.copyFailed}
      />
    </span>
  );
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return strings.common.none;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
}
