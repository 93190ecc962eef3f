import Alert from '@cloudscape-design/components/alert';
import type { Instance } from '../api/types';
import { strings } from '../i18n/strings';

/** An instance created with the plaintext development flag: its brokers have no users and enforce no ACLs. */
export function isUnauthenticated(instance: Instance): boolean {
  return instance.spec.listenerSecurity === 'PLAINTEXT_UNAUTHENTICATED';
}

export function UnauthenticatedNotice() {
  return (
    <Alert type="info" header={strings.access.unauthenticated} data-testid="access-unauthenticated">
      {strings.access.unauthenticatedBody}
    </Alert>
  );
}
