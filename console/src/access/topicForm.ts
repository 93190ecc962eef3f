/** The topic form's fields as typed, and how they become the API's create body or merge patch. */
import type { FieldErrors } from '../api/problem';
import type { KafkaTopic, KafkaTopicCreation, KafkaTopicUpdate } from '../api/types';
import { strings } from '../i18n/strings';

const t = strings.access.topics;
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export const CLEANUP_POLICIES = ['delete', 'compact', 'delete,compact'] as const;
export const COMPRESSION_TYPES = ['producer', 'uncompressed', 'zstd', 'lz4', 'snappy', 'gzip'] as const;

export interface TopicDraft {
  name: string;
  partitions: string;
  /** '' for the brokers' default. */
  replicationFactor: string;
  /** Hours, '-1' for unlimited, '' for the brokers' default. */
  retentionHours: string;
  cleanupPolicy: string;
  compressionType: string;
  maxMessageBytes: string;
}

/** The form's config fields and the topic config each one sets. */
export const CONFIG_FIELDS = {
  retentionHours: 'retention.ms',
  cleanupPolicy: 'cleanup.policy',
  compressionType: 'compression.type',
  maxMessageBytes: 'max.message.bytes',
} as const;
type ConfigField = keyof typeof CONFIG_FIELDS;

/** The API's field paths → the form's fields, for its field errors. */
export const API_FIELDS: Record<string, keyof TopicDraft> = {
  name: 'name',
  partitions: 'partitions',
  replicationFactor: 'replicationFactor',
  ...Object.fromEntries(Object.entries(CONFIG_FIELDS).map(([field, key]) => [`configs.${key}`, field as keyof TopicDraft])),
};

export const NEW_TOPIC: TopicDraft = {
  name: '',
  partitions: '3',
  replicationFactor: '',
  retentionHours: '',
  cleanupPolicy: '',
  compressionType: '',
  maxMessageBytes: '',
};

/** The form filled with a topic's partitions and the configs it overrides. */
export function draftOf(topic: KafkaTopic): TopicDraft {
  const retention = topic.configs['retention.ms'];
  return {
    name: topic.name,
    partitions: String(topic.partitions ?? ''),
    replicationFactor: String(topic.replicationFactor ?? ''),
    retentionHours: retention === undefined ? '' : retention === '-1' ? '-1' : String(Number(retention) / HOUR_MS),
    cleanupPolicy: topic.configs['cleanup.policy'] ?? '',
    compressionType: topic.configs['compression.type'] ?? '',
    maxMessageBytes: topic.configs['max.message.bytes'] ?? '',
  };
}

const WHOLE = /^-?\d+$/;

/** The value a config field sets, as Kafka's string; undefined for the brokers' default. */
function configValue(draft: TopicDraft, field: ConfigField): string | undefined {
  const value = draft[field].trim();
  if (value === '') return undefined;
  if (field === 'retentionHours') return value === '-1' ? '-1' : String(Number(value) * HOUR_MS);
  return value;
}

/** What the form checks before asking the API; `current` is the topic being edited. */
export function validateTopic(draft: TopicDraft, current?: KafkaTopic): FieldErrors {
  const errors: FieldErrors = {};
  if (!current && draft.name.trim() === '') errors.name = t.nameRequired;
  const partitions = Number(draft.partitions);
  if (!WHOLE.test(draft.partitions.trim()) || partitions < 1 || partitions > 10_000) errors.partitions = t.partitionsRange;
  else if (current?.partitions != null && partitions < current.partitions) errors.partitions = t.partitionsOnlyUp(current.partitions);
  const retention = draft.retentionHours.trim();
  if (retention !== '' && !(/^\d+(\.\d+)?$/.test(retention) || retention === '-1')) errors.retentionHours = t.retentionInvalid;
  const maxMessage = draft.maxMessageBytes.trim();
  if (maxMessage !== '' && (!WHOLE.test(maxMessage) || Number(maxMessage) < 1)) errors.maxMessageBytes = t.maxMessageBytesInvalid;
  return errors;
}

export function toTopicCreation(draft: TopicDraft): KafkaTopicCreation {
  const configs: Record<string, string> = {};
  for (const field of Object.keys(CONFIG_FIELDS) as ConfigField[]) {
    const value = configValue(draft, field);
    if (value !== undefined) configs[CONFIG_FIELDS[field]] = value;
  }
  return {
    name: draft.name.trim(),
    partitions: Number(draft.partitions),
    replicationFactor: draft.replicationFactor === '' ? null : Number(draft.replicationFactor),
    ...(Object.keys(configs).length > 0 && { configs }),
  };
}

/** A merge patch of what changed: new partitions, configs set, and configs cleared back to the brokers' default (null). */
export function toTopicUpdate(draft: TopicDraft, topic: KafkaTopic): KafkaTopicUpdate {
  const patch: KafkaTopicUpdate = {};
  if (Number(draft.partitions) !== topic.partitions) patch.partitions = Number(draft.partitions);
  const configs: Record<string, string | null> = {};
  for (const field of Object.keys(CONFIG_FIELDS) as ConfigField[]) {
    const key = CONFIG_FIELDS[field];
    const value = configValue(draft, field) ?? null;
    if (value !== (topic.configs[key] ?? null)) configs[key] = value;
  }
  if (Object.keys(configs).length > 0) patch.configs = configs;
  return patch;
}

/** A topic's retention in words: the brokers' default, unlimited, or days or hours. */
export function formatRetention(retentionMs: number | null): string {
  if (retentionMs === null) return t.brokerDefault;
  if (retentionMs < 0) return t.unlimited;
  if (retentionMs % DAY_MS === 0) return `${retentionMs / DAY_MS} ${retentionMs === DAY_MS ? 'day' : 'days'}`;
  const hours = Math.round((retentionMs / HOUR_MS) * 100) / 100;
  return `${hours} ${hours === 1 ? 'hour' : 'hours'}`;
}
