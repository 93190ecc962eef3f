import Box from '@cloudscape-design/components/box';
import SpaceBetween from '@cloudscape-design/components/space-between';
import type { KafkaAccessStatus } from '../api/types';
import { formatDate, StateIndicator } from '../app/common';
import { strings } from '../i18n/strings';

/**
 * A user's, ACL's or topic's status, what went wrong if anything did, and when Keel last put it back after it was
 * removed behind its back (the drift users see, as for cloud resources).
 */
export function AccessStatus({
  item,
  testId,
}: {
  item: { status: KafkaAccessStatus; statusMessage: string | null; restoredAt?: string | null };
  testId: string;
}) {
  return (
    <SpaceBetween size="xxxs">
      <StateIndicator state={item.status} testId={testId} />
      {item.statusMessage && <Box variant="small">{item.statusMessage}</Box>}
      {item.restoredAt && (
        <Box variant="small" data-testid={`${testId}-restored`}>
          {strings.access.restored(formatDate(item.restoredAt))}
        </Box>
      )}
    </SpaceBetween>
  );
}
