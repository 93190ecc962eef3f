import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { saveFile } from '../app/download';
import { call, collectPages, newIdempotencyKey, useApiClient } from './client';
import type { KafkaAccessStatus, KafkaAclCreation, KafkaTopicCreation, KafkaTopicUpdate } from './types';

export const kafkaAccessKeys = {
  all: (instanceId: string) => ['kafka-access', instanceId] as const,
  users: (instanceId: string) => [...kafkaAccessKeys.all(instanceId), 'users'] as const,
  acls: (instanceId: string) => [...kafkaAccessKeys.all(instanceId), 'acls'] as const,
  topics: (instanceId: string) => [...kafkaAccessKeys.all(instanceId), 'topics'] as const,
};

/** Statuses the broker agent moves on by itself within seconds, so the console polls while one is shown. */
export const TRANSITIONAL_ACCESS_STATUSES: readonly KafkaAccessStatus[] = ['CREATING', 'UPDATING', 'RESTORING', 'DELETING'];

/**
 * Polls fast while an item is on its way, and otherwise as often as the agent reports (every 10 s): a user or ACL
 * removed behind Keel's back, and the topics' sizes, change without anyone asking.
 */
function pollInterval(items: readonly { status: KafkaAccessStatus }[] | undefined): number {
  return items?.some((i) => TRANSITIONAL_ACCESS_STATUSES.includes(i.status)) ? 2000 : 10_000;
}

const idempotent = () => ({ 'Idempotency-Key': newIdempotencyKey() });

/** One kind of item on an instance, every page of it, polled as `pollInterval` says. */
function useAccessList<T extends { status: KafkaAccessStatus }>(
  queryKey: readonly unknown[],
  enabled: boolean,
  fetchPage: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string | null }>,
) {
  return useQuery({
    queryKey,
    enabled,
    queryFn: () => collectPages(fetchPage),
    refetchInterval: (query) => pollInterval(query.state.data),
  });
}

const page = (instanceId: string, cursor: string | undefined) => ({ params: { path: { instanceId }, query: { limit: 100, cursor } } });

export function useKafkaUsers(instanceId: string, enabled = true) {
  const client = useApiClient();
  return useAccessList(kafkaAccessKeys.users(instanceId), enabled, async (cursor) =>
    (await call(client.GET('/instances/{instanceId}/users', page(instanceId, cursor)))).data,
  );
}

export function useKafkaAcls(instanceId: string, enabled = true) {
  const client = useApiClient();
  return useAccessList(kafkaAccessKeys.acls(instanceId), enabled, async (cursor) =>
    (await call(client.GET('/instances/{instanceId}/acls', page(instanceId, cursor)))).data,
  );
}

export function useKafkaTopics(instanceId: string) {
  const client = useApiClient();
  return useAccessList(kafkaAccessKeys.topics(instanceId), true, async (cursor) =>
    (await call(client.GET('/instances/{instanceId}/topics', page(instanceId, cursor)))).data,
  );
}

/** A mutation after which the instance's users, ACLs and topics are re-read. */
function useAccessMutation<A, R>(instanceId: string, mutationFn: (args: A) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: kafkaAccessKeys.all(instanceId) }),
  });
}

export function useCreateKafkaUser(instanceId: string) {
  const client = useApiClient();
  return useAccessMutation(instanceId, async (name: string) =>
    (
      await call(
        client.POST('/instances/{instanceId}/users', { params: { path: { instanceId }, header: idempotent() }, body: { name } }),
      )
    ).data,
  );
}

export function useRotateKafkaUserPassword(instanceId: string) {
  const client = useApiClient();
  return useAccessMutation(instanceId, async (userName: string) =>
    (
      await call(
        client.POST('/instances/{instanceId}/users/{userName}/rotate-password', {
          params: { path: { instanceId, userName }, header: idempotent() },
        }),
      )
    ).data,
  );
}

export function useDeleteKafkaUser(instanceId: string) {
  const client = useApiClient();
  return useAccessMutation(instanceId, async (userName: string) =>
    (
      await call(
        client.DELETE('/instances/{instanceId}/users/{userName}', { params: { path: { instanceId, userName }, header: idempotent() } }),
      )
    ).data,
  );
}

export function useCreateKafkaAcl(instanceId: string) {
  const client = useApiClient();
  return useAccessMutation(instanceId, async (body: KafkaAclCreation) =>
    (await call(client.POST('/instances/{instanceId}/acls', { params: { path: { instanceId }, header: idempotent() }, body }))).data,
  );
}

export function useDeleteKafkaAcl(instanceId: string) {
  const client = useApiClient();
  return useAccessMutation(instanceId, async (aclId: string) =>
    (await call(client.DELETE('/instances/{instanceId}/acls/{aclId}', { params: { path: { instanceId, aclId }, header: idempotent() } })))
      .data,
  );
}

export function useCreateKafkaTopic(instanceId: string) {
  const client = useApiClient();
  return useAccessMutation(instanceId, async (body: KafkaTopicCreation) =>
    (await call(client.POST('/instances/{instanceId}/topics', { params: { path: { instanceId }, header: idempotent() }, body }))).data,
  );
}

export function useUpdateKafkaTopic(instanceId: string) {
  const client = useApiClient();
  return useAccessMutation(instanceId, async ({ topicName, patch }: { topicName: string; patch: KafkaTopicUpdate }) =>
    (
      await call(
        client.PATCH('/instances/{instanceId}/topics/{topicName}', {
          params: { path: { instanceId, topicName }, header: idempotent() },
          body: patch,
          headers: { 'Content-Type': 'application/merge-patch+json' },
        }),
      )
    ).data,
  );
}

export function useDeleteKafkaTopic(instanceId: string) {
  const client = useApiClient();
  return useAccessMutation(instanceId, async (topicName: string) =>
    (
      await call(
        client.DELETE('/instances/{instanceId}/topics/{topicName}', { params: { path: { instanceId, topicName }, header: idempotent() } }),
      )
    ).data,
  );
}

/** Saves the instance's CA certificate as `<file name>`, fetched with the user's token (a plain link would carry none). */
export function useDownloadCaCertificate(instanceId: string) {
  const client = useApiClient();
  return useMutation({
    mutationFn: async (fileName: string) => {
      const { data } = await call(
        client.GET('/instances/{instanceId}/ca-certificate', {
          params: { path: { instanceId } },
          parseAs: 'text',
          headers: { Accept: 'application/x-pem-file, application/problem+json' },
        }),
      );
      saveFile(fileName, data, 'application/x-pem-file');
    },
  });
}
