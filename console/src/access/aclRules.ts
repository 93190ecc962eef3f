/** Kafka's rules for an ACL binding, as the API checks them, so the form offers only what Kafka accepts. */
import type { KafkaAclCreation } from '../api/types';
import type { FieldErrors } from '../api/problem';
import { strings } from '../i18n/strings';

export type ResourceType = KafkaAclCreation['resourceType'];
export type AclOperation = KafkaAclCreation['operation'];

export const RESOURCE_TYPES: readonly ResourceType[] = ['TOPIC', 'GROUP', 'CLUSTER', 'TRANSACTIONAL_ID'];

/** The operations Kafka allows on each resource type. */
export const OPERATIONS: Record<ResourceType, readonly AclOperation[]> = {
  TOPIC: ['READ', 'WRITE', 'CREATE', 'DELETE', 'ALTER', 'DESCRIBE', 'DESCRIBE_CONFIGS', 'ALTER_CONFIGS', 'ALL'],
  GROUP: ['READ', 'DESCRIBE', 'DELETE', 'ALL'],
  CLUSTER: ['CREATE', 'CLUSTER_ACTION', 'DESCRIBE_CONFIGS', 'ALTER_CONFIGS', 'IDEMPOTENT_WRITE', 'ALTER', 'DESCRIBE', 'ALL'],
  TRANSACTIONAL_ID: ['DESCRIBE', 'WRITE', 'ALL'],
};

/** Kafka's one cluster resource. */
export const CLUSTER_NAME = 'kafka-cluster';

export interface AclDraft {
  principal: string;
  resourceType: ResourceType;
  resourceName: string;
  patternType: KafkaAclCreation['patternType'];
  operation: AclOperation | '';
  permission: KafkaAclCreation['permission'];
  host: string;
}

const a = strings.access.acls;

/** What the form checks before asking the API (which checks the rest, e.g. the host's address). */
export function validateAcl(draft: AclDraft): FieldErrors {
  const errors: FieldErrors = {};
  const principal = draft.principal.trim();
  if (principal === '') errors.principal = a.principalRequired;
  else if (!/^User:.+$/.test(principal)) errors.principal = a.principalFormat;
  if (draft.resourceName.trim() === '') errors.resourceName = a.resourceNameRequired;
  else if (draft.patternType === 'PREFIXED' && draft.resourceName.includes('*')) errors.resourceName = a.prefixNoWildcard;
  if (draft.operation === '') errors.operation = a.operationRequired;
  else if (!OPERATIONS[draft.resourceType].includes(draft.operation)) errors.operation = a.operationNotAllowed(draft.operation, draft.resourceType);
  return errors;
}

export function toAclCreation(draft: AclDraft): KafkaAclCreation {
  return {
    principal: draft.principal.trim(),
    resourceType: draft.resourceType,
    resourceName: draft.resourceType === 'CLUSTER' ? CLUSTER_NAME : draft.resourceName.trim(),
    patternType: draft.resourceType === 'CLUSTER' ? 'LITERAL' : draft.patternType,
    operation: draft.operation as AclOperation,
    permission: draft.permission,
    host: draft.host.trim() === '' ? '*' : draft.host.trim(),
  };
}

/** A changed resource type keeps the operation only if Kafka allows it there; the cluster has one fixed name. */
export function withResourceType(draft: AclDraft, resourceType: ResourceType): AclDraft {
  return {
    ...draft,
    resourceType,
    operation: draft.operation !== '' && OPERATIONS[resourceType].includes(draft.operation) ? draft.operation : '',
    resourceName: resourceType === 'CLUSTER' ? CLUSTER_NAME : draft.resourceType === 'CLUSTER' ? '' : draft.resourceName,
    patternType: resourceType === 'CLUSTER' ? 'LITERAL' : draft.patternType,
  };
}
