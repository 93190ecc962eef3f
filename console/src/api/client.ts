import { createContext, useContext } from 'react';
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './generated/schema';
import { networkError, toApiError } from './problem';

export type KeelClient = Client<paths>;

export interface ClientOptions {
  baseUrl: string;
  /** The current access token (read on every request, so silent renewal is picked up). */
  getAccessToken: () => string | undefined;
  /** The organization slug the user chose; sent as `X-Organization`. */
  getOrganization: () => string | undefined;
  fetch?: (request: Request) => Promise<Response>;
  /** Called on a 401 (expired or revoked token), e.g. to renew the session. */
  onUnauthorized?: () => void;
}

export function createKeelClient(options: ClientOptions): KeelClient {
  const client = createClient<paths>({
    baseUrl: options.baseUrl,
    // Resolve fetch per call (tests replace globalThis.fetch after the client exists).
    fetch: options.fetch ?? ((request: Request) => globalThis.fetch(request)),
  });
  client.use({
    onRequest({ request }) {
      const token = options.getAccessToken();
      if (token) request.headers.set('Authorization', `Bearer ${token}`);
      const org = options.getOrganization();
      if (org && !request.headers.has('X-Organization')) request.headers.set('X-Organization', org);
      // A call that expects another media type (the YAML onboarding template) sets its own Accept.
      if (!request.headers.has('Accept')) request.headers.set('Accept', 'application/json, application/problem+json');
      return request;
    },
    onResponse({ response }) {
      if (response.status === 401) options.onUnauthorized?.();
      return response;
    },
  });
  return client;
}

type Result<T> = { data?: T; error?: unknown; response: Response };

/**
 * Awaits an openapi-fetch call and returns its data, or throws an ApiError: the single place where
 * problem documents, unexpected bodies and network failures are normalised.
 */
export async function call<T>(request: Promise<Result<T>>): Promise<{ data: T; response: Response }> {
  let result: Result<T>;
  try {
    result = await request;
  } catch (cause) {
    throw networkError(cause);
  }
  if (result.error !== undefined || !result.response.ok) {
    throw toApiError(result.error, result.response);
  }
  return { data: result.data as T, response: result.response };
}

/** Follows `nextCursor` up to `maxPages` pages and concatenates the items. */
export async function collectPages<T>(
  fetchPage: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string | null }>,
  maxPages = 10,
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const result = await fetchPage(cursor);
    items.push(...result.items);
    if (!result.nextCursor) break;
    cursor = result.nextCursor;
  }
  return items;
}

/** A fresh key for one user action (a click on Create, Delete, Apply...). */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}

export const ApiClientContext = createContext<KeelClient | null>(null);

export function useApiClient(): KeelClient {
  const client = useContext(ApiClientContext);
  if (!client) throw new Error('useApiClient outside ApiClientContext');
  return client;
}
