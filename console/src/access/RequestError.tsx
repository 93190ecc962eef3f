import Alert from '@cloudscape-design/components/alert';
import type { FieldError } from '../api/types';
import { ErrorDetail, FieldErrorList } from '../app/common';

/**
 * Why a request in a modal was refused, where no form field says it: the API's field errors no field took, or its
 * one-line reason; nothing when every field error is shown on its field.
 */
export function RequestError({
  error,
  unmatched = [],
  shownOnFields = false,
}: {
  error: unknown;
  unmatched?: readonly FieldError[];
  shownOnFields?: boolean;
}) {
  if (!error || (shownOnFields && unmatched.length === 0)) return null;
  return (
    <Alert type="error" data-testid="request-error">
      {unmatched.length > 0 ? <FieldErrorList errors={unmatched} /> : <ErrorDetail error={error} />}
    </Alert>
  );
}
