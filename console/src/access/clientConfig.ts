/**
 * What a Kafka client needs to connect, as text to paste: Java's client.properties, and the same settings for kcat
 * (librdkafka names them differently). One place, so the Connect tab, a new user's credentials and the browser tests
 * all read the same settings.
 */
import type { Instance, Connection } from '../api/types';

export interface Credentials {
  username: string;
  password: string;
}

/** Placeholders where the Connect tab knows no user (passwords are shown once, when a user is created). */
export const PLACEHOLDER_CREDENTIALS: Credentials = { username: '<username>', password: '<password>' };

/** The name the CA certificate is saved under, as the API's Content-Disposition names it. */
export function caFileName(instance: Pick<Instance, 'name'>): string {
  return `${instance.name}-ca.pem`;
}

/** The instance's connection; for an instance read from an API without it, what its spec and inventory say. */
export function connectionOf(instance: Instance): Connection {
  if (instance.connection) return instance.connection;
  const secure = instance.spec.listenerSecurity !== 'PLAINTEXT_UNAUTHENTICATED';
  return {
    bootstrapServers: instance.inventory.bootstrapServers,
    securityProtocol: secure ? 'SASL_SSL' : 'PLAINTEXT',
    saslMechanism: secure ? 'SCRAM-SHA-512' : null,
    caCertificateUrl: secure ? `/instances/${instance.id}/ca-certificate` : null,
  };
}

const BOOTSTRAP_PLACEHOLDER = '<bootstrap servers, once the brokers are up>';

/** A JAAS string literal: Kafka's parser takes backslash escapes inside double quotes. */
function jaasQuoted(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** Java client.properties: SCRAM-SHA-512 over SASL_SSL with the CA as a PEM truststore, or plaintext. */
export function clientProperties(connection: Connection, caFile: string, credentials: Credentials = PLACEHOLDER_CREDENTIALS): string {
  const lines = [`bootstrap.servers=${connection.bootstrapServers ?? BOOTSTRAP_PLACEHOLDER}`, `security.protocol=${connection.securityProtocol}`];
  if (connection.securityProtocol === 'SASL_SSL') {
    lines.push(
      `sasl.mechanism=${connection.saslMechanism ?? 'SCRAM-SHA-512'}`,
      `sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username=${jaasQuoted(credentials.username)} password=${jaasQuoted(credentials.password)};`,
      '# The instance\'s CA certificate, downloaded from its Connect tab: its path, relative to where the client runs.',
      'ssl.truststore.type=PEM',
      `ssl.truststore.location=${caFile}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** A Java producer that reads client.properties. */
export function javaSnippet(): string {
  return `Properties props = new Properties();
try (InputStream in = Files.newInputStream(Path.of("client.properties"))) {
    props.load(in);
}
props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
try (KafkaProducer<String, String> producer = new KafkaProducer<>(props)) {
    producer.send(new ProducerRecord<>("orders", "order-1", "{\\"total\\": 42}")).get();
}
`;
}

/** kcat listing the cluster's metadata with the same settings (librdkafka's names). */
export function kcatSnippet(connection: Connection, caFile: string, credentials: Credentials = PLACEHOLDER_CREDENTIALS): string {
  const args = [`kcat -b '${connection.bootstrapServers ?? BOOTSTRAP_PLACEHOLDER}'`];
  if (connection.securityProtocol === 'SASL_SSL') {
    args.push(
      '-X security.protocol=SASL_SSL',
      `-X sasl.mechanisms=${connection.saslMechanism ?? 'SCRAM-SHA-512'}`,
      `-X sasl.username='${credentials.username}'`,
      `-X sasl.password='${credentials.password}'`,
      `-X ssl.ca.location='${caFile}'`,
    );
  }
  args.push('-L');
  return `${args.join(' \\\n  ')}\n`;
}
