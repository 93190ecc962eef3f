import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { saveFile } from '../app/download';
import { call, collectPages, newIdempotencyKey, useApiClient } from './client';
import type { CloudAccountRegistration } from './types';

export const cloudAccountKeys = {
  all: ['cloud-accounts'] as const,
  list: () => [...cloudAccountKeys.all, 'list'] as const,
  detail: (id: string) => [...cloudAccountKeys.all, 'detail', id] as const,
  networks: (id: string, region: string) => [...cloudAccountKeys.all, 'networks', id, region] as const,
};

export function useCloudAccounts() {
  const client = useApiClient();
  return useQuery({
    queryKey: cloudAccountKeys.list(),
    queryFn: () =>
      collectPages(async (cursor) =>
        (await call(client.GET('/cloud-accounts', { params: { query: { limit: 100, cursor } } }))).data,
      ),
  });
}

export function useRegisterCloudAccount() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: CloudAccountRegistration) =>
      (
        await call(
          client.POST('/cloud-accounts', { body, params: { header: { 'Idempotency-Key': newIdempotencyKey() } } }),
        )
      ).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: cloudAccountKeys.all }),
  });
}

export function useDeleteCloudAccount() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await call(
        client.DELETE('/cloud-accounts/{cloudAccountId}', {
          params: { path: { cloudAccountId: id }, header: { 'Idempotency-Key': newIdempotencyKey() } },
        }),
      );
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: cloudAccountKeys.all }),
  });
}

/** Checks the account's role again; the answer is the account with its new status and verification. */
export function useVerifyCloudAccount() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) =>
      (
        await call(
          client.POST('/cloud-accounts/{cloudAccountId}/verify', {
            params: { path: { cloudAccountId: id }, header: { 'Idempotency-Key': newIdempotencyKey() } },
          }),
        )
      ).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: cloudAccountKeys.all }),
  });
}

const ONBOARDING_TEMPLATE_FILE = 'keel-cross-account-role.yaml';

/**
 * Saves the onboarding CloudFormation template (the organization's external id filled in) as a file.
 * A mutation rather than a query: the download is a one-off action, and nothing caches or reads the text.
 */
export function useDownloadOnboardingTemplate() {
  const client = useApiClient();
  return useMutation({
    mutationFn: async () => {
      const { data } = await call(
        client.GET('/cloud-accounts/onboarding-template', {
          parseAs: 'text',
          // The endpoint produces only YAML; problem documents still describe its errors.
          headers: { Accept: 'application/yaml, application/problem+json' },
        }),
      );
      saveFile(ONBOARDING_TEMPLATE_FILE, data, 'application/yaml');
    },
  });
}

/** The account's VPCs and subnets in a region, read live through its role; idle until both are chosen. */
export function useAccountNetworks(accountId: string, region: string) {
  const client = useApiClient();
  return useQuery({
    queryKey: cloudAccountKeys.networks(accountId, region),
    enabled: accountId !== '' && region !== '',
    queryFn: async () =>
      (
        await call(
          client.GET('/cloud-accounts/{cloudAccountId}/networks', {
            params: { path: { cloudAccountId: accountId }, query: { region } },
          }),
        )
      ).data,
  });
}
