import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { BrowserRouter, Navigate, Outlet, Route, Routes } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useAuth } from 'react-oidc-context';
import Alert from '@cloudscape-design/components/alert';
import Button from '@cloudscape-design/components/button';
import Spinner from '@cloudscape-design/components/spinner';
import { ApiClientContext, createKeelClient, type KeelClient } from '../api/client';
import { useOrganization } from '../api/organization';
import { describeError } from '../api/problem';
import type { ConsoleConfig } from '../config';
import { strings } from '../i18n/strings';
import { AppShell } from './AppShell';
import { Centered } from './Centered';
import { NotificationsProvider } from './notifications';
import { canEdit, SessionContext, type Session } from './session';
import { TopNav } from './TopNav';

// Route-level code splitting: each page is its own chunk.
const InstancesPage = lazy(() => import('../instances/InstancesPage'));
const CreateInstancePage = lazy(() => import('../instances/CreateInstancePage'));
const InstanceDetailPage = lazy(() => import('../instances/InstanceDetailPage'));
const CloudAccountsPage = lazy(() => import('../cloudAccounts/CloudAccountsPage'));
const ConnectCloudAccountPage = lazy(() => import('../cloudAccounts/ConnectCloudAccountPage'));
const BillingPage = lazy(() => import('../billing/BillingPage'));
const AuditLogPage = lazy(() => import('../audit/AuditLogPage'));
const RegisterPage = lazy(() => import('../billing/RegisterPage'));

const ORG_KEY = 'keel.organization';

/** The console once signed in: the API client, the organization, and the pages. */
export default function SignedIn({ config }: { config: ConsoleConfig }) {
  const auth = useAuth();
  const queryClient = useQueryClient();
  const tokenRef = useRef<string | undefined>(auth.user?.access_token);
  tokenRef.current = auth.user?.access_token;
  const [orgSlug, setOrgSlug] = useState<string | undefined>(() => localStorage.getItem(ORG_KEY) ?? undefined);
  const orgRef = useRef(orgSlug);
  orgRef.current = orgSlug;
  const renewing = useRef(false);

  const client: KeelClient = useMemo(
    () =>
      createKeelClient({
        baseUrl: config.apiBaseUrl,
        getAccessToken: () => tokenRef.current,
        getOrganization: () => orgRef.current,
        onUnauthorized: () => {
          if (renewing.current) return;
          renewing.current = true;
          auth
            .signinSilent()
            .catch(() => auth.signinRedirect({ state: { returnTo: window.location.pathname + window.location.search } }))
            .finally(() => {
              renewing.current = false;
            });
        },
      }),
    // The client lives as long as the signed-in session; token and org are read through refs.
    [config.apiBaseUrl],
  );

  const switchOrganization = useCallback(
    (slug: string, path = '/instances') => {
      localStorage.setItem(ORG_KEY, slug);
      orgRef.current = slug;
      queryClient.clear();
      setOrgSlug(slug);
      window.history.pushState({}, '', path);
    },
    [queryClient],
  );
  const signOut = useCallback(() => {
    queryClient.clear();
    void auth.signoutRedirect();
  }, [auth, queryClient]);

  return (
    <ApiClientContext.Provider value={client}>
      <OrganizationGate
        slug={orgSlug}
        onNotMember={() => {
          localStorage.removeItem(ORG_KEY);
          orgRef.current = undefined;
          setOrgSlug(undefined);
        }}
        switchOrganization={switchOrganization}
        signOut={signOut}
      />
    </ApiClientContext.Provider>
  );
}

function OrganizationGate({
  slug,
  onNotMember,
  switchOrganization,
  signOut,
}: {
  slug: string | undefined;
  onNotMember: () => void;
  switchOrganization: (slug: string, path?: string) => void;
  signOut: () => void;
}) {
  const org = useOrganization(slug);
  useEffect(() => {
    if (slug && org.error && 'status' in org.error && org.error.status === 403) onNotMember();
  }, [slug, org.error, onNotMember]);
  const session: Session | undefined = useMemo(
    () =>
      org.data && {
        organization: org.data,
        role: org.data.role,
        canEdit: canEdit(org.data.role),
        switchOrganization,
        signOut,
      },
    [org.data, switchOrganization, signOut],
  );
  if (org.error) {
    return (
      <Centered>
        <Alert type="error" header={strings.common.requestFailed} action={<Button onClick={signOut}>{strings.nav.signOut}</Button>}>
          {describeError(org.error)}
        </Alert>
      </Centered>
    );
  }
  if (!session) {
    return (
      <Centered>
        <Spinner size="large" />
      </Centered>
    );
  }
  return (
    <SessionContext.Provider value={session}>
      <NotificationsProvider>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </NotificationsProvider>
    </SessionContext.Provider>
  );
}

function Layout() {
  return (
    <>
      <TopNav />
      <Suspense
        fallback={
          <AppShell breadcrumbs={[]} content={<Spinner size="large" />} />
        }
      >
        <Outlet />
      </Suspense>
    </>
  );
}

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route index element={<Navigate to="/instances" replace />} />
        <Route path="instances" element={<InstancesPage />} />
        <Route path="instances/create" element={<CreateInstancePage />} />
        <Route path="instances/:instanceId" element={<InstanceDetailPage />} />
        <Route path="cloud-accounts" element={<CloudAccountsPage />} />
        <Route path="cloud-accounts/connect" element={<ConnectCloudAccountPage />} />
        <Route path="billing" element={<BillingPage />} />
        <Route path="register" element={<RegisterPage />} />
        <Route path="audit" element={<AuditLogPage />} />
        <Route
          path="*"
          element={
            <AppShell
              breadcrumbs={[]}
              content={<Alert type="warning" header={strings.app.notFound}>{strings.app.notFoundBody}</Alert>}
            />
          }
        />
      </Route>
    </Routes>
  );
}
