import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import Header from '@cloudscape-design/components/header';
import KeyValuePairs from '@cloudscape-design/components/key-value-pairs';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useDownloadCaCertificate } from '../api/kafkaAccess';
import type { Instance } from '../api/types';
import { Copyable, ErrorDetail } from '../app/common';
import { strings } from '../i18n/strings';
import { caFileName, clientProperties, connectionOf, javaSnippet, kcatSnippet } from './clientConfig';
import { Snippet } from './Snippet';

const c = strings.access.connect;

/** Everything a client needs: the bootstrap servers, the CA to trust, and ready settings for Java and kcat. */
export function ConnectTab({ instance }: { instance: Instance }) {
  const connection = connectionOf(instance);
  const caFile = caFileName(instance);
  const download = useDownloadCaCertificate(instance.id);
  const secure = connection.securityProtocol === 'SASL_SSL';
  return (
    <SpaceBetween size="l">
      {!secure && (
        <Alert type="warning" header={c.plaintextHeader} data-testid="connect-plaintext">
          {c.plaintextBody}
        </Alert>
      )}
      <Container header={<Header variant="h2" description={secure ? c.description : undefined}>{c.title}</Header>}>
        <KeyValuePairs
          columns={secure ? 4 : 2}
          items={[
            {
              label: c.bootstrap,
              value: connection.bootstrapServers ? (
                <Copyable text={connection.bootstrapServers} testId="connect-bootstrap" />
              ) : (
                <Box color="text-status-inactive">{c.noBootstrap}</Box>
              ),
            },
            { label: c.securityProtocol, value: <span data-testid="connect-protocol">{connection.securityProtocol}</span> },
            ...(secure
              ? [
                  { label: c.saslMechanism, value: connection.saslMechanism },
                  {
                    label: c.caCertificate,
                    value: (
                      <Button
                        iconName="download"
                        data-testid="download-ca"
                        loading={download.isPending}
                        onClick={() => download.mutate(caFile)}
                      >
                        {c.downloadCa}
                      </Button>
                    ),
                  },
                ]
              : []),
          ]}
        />
        {download.error && (
          <Box padding={{ top: 's' }}>
            <Alert type="error" header={c.caFailed} data-testid="download-ca-error">
              <ErrorDetail error={download.error} />
            </Alert>
          </Box>
        )}
      </Container>
      <Container header={<Header variant="h2" description={secure ? c.propertiesHelp(caFile) : undefined}>{c.properties}</Header>}>
        <SpaceBetween size="l">
          <Snippet label={c.properties} text={clientProperties(connection, caFile)} testId="connect-properties" />
          <Snippet label={c.java} text={javaSnippet()} testId="connect-java" />
          <Snippet label={c.kcat} text={kcatSnippet(connection, caFile)} testId="connect-kcat" />
        </SpaceBetween>
      </Container>
    </SpaceBetween>
  );
}
