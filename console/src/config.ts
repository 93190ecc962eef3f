/** Runtime configuration, fetched from /config.json at start so one build serves dev, tests and production. */
export interface ConsoleConfig {
  /** Base URL of the REST API, e.g. `/api/v1` (proxied) or `https://api.example.com/api/v1`. */
  apiBaseUrl: string;
  /** Keycloak base URL, e.g. `http://localhost:8180`. */
  keycloakUrl: string;
  realm: string;
  clientId: string;
}

export async function loadConfig(fetchImpl: typeof fetch = fetch): Promise<ConsoleConfig> {
  const response = await fetchImpl('/config.json', { cache: 'no-store' });
  if (!response.ok) throw new Error(`Cannot load /config.json: HTTP ${response.status}`);
  const raw = (await response.json()) as Partial<ConsoleConfig>;
  for (const key of ['apiBaseUrl', 'keycloakUrl', 'realm', 'clientId'] as const) {
    if (typeof raw[key] !== 'string' || raw[key] === '') throw new Error(`/config.json lacks "${key}"`);
  }
  return raw as ConsoleConfig;
}
