import type { ReactElement } from 'react';
import { render, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ApiClientContext, createKeelClient } from '../api/client';
import type { Organization, Role } from '../api/types';
import { NotificationsProvider } from '../app/notifications';
import { canEdit, SessionContext } from '../app/session';
import { organization } from './fixtures';

export type Handler = (request: Request) => Response | Promise<Response>;

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': status >= 400 ? 'application/problem+json' : 'application/json', ...headers },
  });
}

/** A fake API: "METHOD /path" (path after /api/v1, no query) → handler; anything else answers 404. */
export function fakeApi(routes: Record<string, Handler | unknown>) {
  const calls: Request[] = [];
  const fetch = async (request: Request) => {
    calls.push(request.clone());
    const path = new URL(request.url).pathname.replace(/^\/api\/v1/, '');
    const route = routes[`${request.method} ${path}`];
    if (route === undefined) return json({ type: 'about:blank', title: 'Not found', status: 404 }, 404);
    return typeof route === 'function' ? (route as Handler)(request) : json(route);
  };
  return { fetch, calls };
}

export function renderWithProviders(
  ui: ReactElement,
  {
    role = 'editor',
    api = fakeApi({}),
    route = '/',
    memberships,
    switchOrganization = () => undefined,
  }: {
    role?: Role;
    api?: ReturnType<typeof fakeApi>;
    route?: string;
    /** The user's organizations, when a test needs more than the one it acts in. */
    memberships?: Organization['memberships'];
    switchOrganization?: (slug: string, path?: string) => void;
  } = {},
) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const client = createKeelClient({
    baseUrl: 'http://console.test/api/v1',
    getAccessToken: () => 'token',
    getOrganization: () => 'acme',
    fetch: api.fetch,
  });
  const org = { ...organization(role), ...(memberships && { memberships }) };
  return render(
    <QueryClientProvider client={queryClient}>
      <ApiClientContext.Provider value={client}>
        <SessionContext.Provider
          value={{ organization: org, role, canEdit: canEdit(role), switchOrganization, signOut: () => undefined }}
        >
          <NotificationsProvider>
            <MemoryRouter initialEntries={[route]}>{ui}</MemoryRouter>
          </NotificationsProvider>
        </SessionContext.Provider>
      </ApiClientContext.Provider>
    </QueryClientProvider>,
  );
}

/**
 * `waitFor` that wakes on changes to the page's nodes and text, not its attributes: Cloudscape's test-utils mark the
 * elements they search with an attribute, so a check that searches with them would otherwise wake itself up again
 * and again and never let the page go on.
 */
export function eventually<T>(check: () => T | Promise<T>): Promise<T> {
  return waitFor(check, { mutationObserverOptions: { subtree: true, childList: true, characterData: true } });
}
