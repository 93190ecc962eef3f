import type { AuthProviderProps } from 'react-oidc-context';
import { WebStorageStateStore, type User } from 'oidc-client-ts';
import type { ConsoleConfig } from '../config';

/** Authorization code + PKCE (S256, oidc-client-ts' default) against the Keycloak realm; silent renewal by refresh token. */
export function oidcSettings(config: ConsoleConfig): AuthProviderProps {
  const origin = window.location.origin;
  return {
    authority: `${config.keycloakUrl.replace(/\/$/, '')}/realms/${config.realm}`,
    client_id: config.clientId,
    redirect_uri: `${origin}/`,
    post_logout_redirect_uri: `${origin}/`,
    response_type: 'code',
    scope: 'openid profile email',
    automaticSilentRenew: true,
    userStore: new WebStorageStateStore({ store: window.sessionStorage }),
    onSigninCallback: (user: User | void) => {
      const state = (user?.state ?? {}) as { returnTo?: string };
      const returnTo = state.returnTo && state.returnTo.startsWith('/') ? state.returnTo : '/';
      window.history.replaceState({}, document.title, returnTo);
    },
  };
}
