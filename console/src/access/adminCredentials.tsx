import Box from '@cloudscape-design/components/box';
import SpaceBetween from '@cloudscape-design/components/space-between';
import type { AdminCredentials } from '../api/types';
import type { Notice } from '../app/notifications';
import { strings } from '../i18n/strings';
import { CredentialsView } from './OneTimePasswordModal';

const t = strings.access.secret;

/**
 * The default admin's credentials from a create's answer, as a notice that stays until the user dismisses it. It
 * lives in the notifications' memory only (never in browser storage), so a reload is the end of it, as the API's
 * "shown once" means.
 */
export function adminCredentialsNotice(instanceId: string, instanceName: string, credentials: AdminCredentials): Notice {
  return {
    id: `admin-credentials-${instanceId}`,
    type: 'warning',
    header: t.adminHeader(instanceName),
    content: (
      <SpaceBetween size="xs">
        <Box variant="p" color="inherit">
          {t.adminBody}
        </Box>
        <div data-testid="admin-credentials">
          <CredentialsView credentials={credentials} />
        </div>
      </SpaceBetween>
    ),
  };
}
