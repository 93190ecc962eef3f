import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import KeyValuePairs from '@cloudscape-design/components/key-value-pairs';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import type { Instance } from '../api/types';
import { Copyable } from '../app/common';
import { strings } from '../i18n/strings';
import { caFileName, clientProperties, connectionOf, type Credentials } from './clientConfig';
import { Snippet } from './Snippet';

const t = strings.access.secret;

/** A user name and password with copy buttons, and the warning that the password is not shown again. */
export function CredentialsView({ credentials }: { credentials: Credentials }) {
  return (
    <KeyValuePairs
      columns={2}
      items={[
        { label: t.username, value: <Copyable text={credentials.username} testId="secret-username" /> },
        { label: t.password, value: <Copyable text={credentials.password} testId="secret-password" /> },
      ]}
    />
  );
}

/**
 * A password the API generated and answered once (a new user, a rotation), with a client.properties for that user.
 * The password lives only in this modal's props: closing it is the last the console knows of it.
 */
export function OneTimePasswordModal({
  header,
  instance,
  credentials,
  onClose,
}: {
  header: string;
  instance: Instance;
  credentials: Credentials;
  onClose: () => void;
}) {
  return (
    <Modal
      visible
      size="large"
      header={header}
      closeAriaLabel={strings.common.close}
      onDismiss={onClose}
      data-testid="one-time-password"
      footer={
        <Box float="right">
          <Button variant="primary" data-testid="one-time-password-done" onClick={onClose}>
            {t.done}
          </Button>
        </Box>
      }
    >
      <SpaceBetween size="l">
        <Alert type="warning" header={t.shownOnce}>
          {t.shownOnceBody}
        </Alert>
        <CredentialsView credentials={credentials} />
        <Snippet
          label={t.properties}
          text={clientProperties(connectionOf(instance), caFileName(instance), credentials)}
          testId="secret-properties"
        />
      </SpaceBetween>
    </Modal>
  );
}
