import Box from '@cloudscape-design/components/box';
import Popover from '@cloudscape-design/components/popover';
import SpaceBetween from '@cloudscape-design/components/space-between';
import TextContent from '@cloudscape-design/components/text-content';
import type { CloudAccount } from '../api/types';
import { formatDate, StateIndicator } from '../app/common';
import type { Notice } from '../app/notifications';
import { strings } from '../i18n/strings';

const v = strings.cloudAccounts.verification;

/** What the last check of the role found, and the IAM actions it lacks. */
export function VerificationDetails({ verification }: { verification: CloudAccount['verification'] }) {
  // color="inherit": this also renders inside warning flashes, where secondary grey is hard to read.
  return (
    <SpaceBetween size="xs">
      {verification.message && (
        <Box variant="p" color="inherit" data-testid="verification-message">
          {verification.message}
        </Box>
      )}
      {verification.missingActions.length > 0 && (
        <div data-testid="missing-actions">
          <Box variant="strong" color="inherit">
            {v.missingActions}
          </Box>
          <TextContent>
            <ul>
              {verification.missingActions.map((action) => (
                <li key={action}>
                  <code>{action}</code>
                </li>
              ))}
            </ul>
          </TextContent>
        </div>
      )}
      {verification.checkedAt && (
        <Box variant="small" color="inherit">
          {v.checkedAt(formatDate(verification.checkedAt))}
        </Box>
      )}
    </SpaceBetween>
  );
}

/** The account's status; when the last check found something, the status opens its details. */
export function AccountStatus({ account }: { account: CloudAccount }) {
  const indicator = <StateIndicator state={account.status} testId={`account-status-${account.name}`} />;
  const { message, missingActions } = account.verification;
  if (!message && missingActions.length === 0) return indicator;
  return (
    <Popover
      triggerType="text"
      size="large"
      header={v.header}
      content={<VerificationDetails verification={account.verification} />}
      dismissAriaLabel={strings.common.close}
      // A table cell clips an inline popover.
      renderWithPortal
    >
      {indicator}
    </Popover>
  );
}

/** The flash after a check: success, or a warning that says what to fix. */
export function verificationNotice(account: CloudAccount, verifiedText: string, notVerifiedHeader: string): Notice {
  // One notice per account, so checking again replaces the previous result instead of stacking it.
  const id = `verification-${account.id}`;
  return account.status === 'VERIFIED'
    ? { id, type: 'success', content: verifiedText }
    : { id, type: 'warning', header: notVerifiedHeader, content: <VerificationDetails verification={account.verification} /> };
}
