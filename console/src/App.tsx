import { lazy, Suspense, useEffect, useState } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { AuthProvider, hasAuthParams, useAuth } from 'react-oidc-context';
import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Spinner from '@cloudscape-design/components/spinner';
import type { ConsoleConfig } from './config';
import { oidcSettings } from './auth/oidc';
import { Centered } from './app/Centered';
import { strings } from './i18n/strings';

// The first load carries only what signing in needs. The signed-in console (the layout, navigation and pages) is a
// chunk of its own, fetched at once, so it downloads while Keycloak completes the sign-in rather than after it.
const loadSignedIn = () => import('./app/SignedInApp');
void loadSignedIn();
const SignedIn = lazy(loadSignedIn);

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: (count, error) => count < 2 && !(error instanceof Error && 'status' in error && Number((error as { status: number }).status) >= 400), refetchOnWindowFocus: false },
    },
  });
}

export function App({ config }: { config: ConsoleConfig }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <AuthProvider {...oidcSettings(config)}>
      <QueryClientProvider client={queryClient}>
        <AuthGate config={config} />
      </QueryClientProvider>
    </AuthProvider>
  );
}

function AuthGate({ config }: { config: ConsoleConfig }) {
  const auth = useAuth();
  const [tried, setTried] = useState(false);
  useEffect(() => {
    if (!hasAuthParams() && !auth.isAuthenticated && !auth.activeNavigator && !auth.isLoading && !auth.error && !tried) {
      setTried(true);
      void auth.signinRedirect({ state: { returnTo: window.location.pathname + window.location.search } });
    }
  }, [auth, tried]);
  if (auth.error) {
    return (
      <Centered>
        <Alert type="error" header={strings.app.signInFailed} action={<Button onClick={() => void auth.signinRedirect()}>{strings.app.retrySignIn}</Button>}>
          {auth.error.message}
        </Alert>
      </Centered>
    );
  }
  if (!auth.isAuthenticated || !auth.user) {
    return (
      <Centered>
        <Spinner size="large" /> <Box variant="p">{strings.app.signingIn}</Box>
      </Centered>
    );
  }
  return (
    <Suspense
      fallback={
        <Centered>
          <Spinner size="large" />
        </Centered>
      }
    >
      <SignedIn config={config} />
    </Suspense>
  );
}

