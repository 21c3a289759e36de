import 'server-only';
import type * as oauth from 'oauth4webapi';
import { config } from '@/lib/config';

export const PROVIDERS = ['google', 'github'] as const;
export type Provider = (typeof PROVIDERS)[number];
export const isProvider = (value: string): value is Provider => (PROVIDERS as readonly string[]).includes(value);

/**
 * What a connection may do, asked for at consent. Google: Gmail drafts and sending (`gmail.compose` also
 * reads the mailbox's address, which names the connection) and Calendar events, read and write. GitHub:
 * `repo`, the OAuth app scope that covers issues and pull requests (private repositories included).
 */
export const SCOPES: Record<Provider, string[]> = {
  google: ['https://www.googleapis.com/auth/gmail.compose', 'https://www.googleapis.com/auth/calendar.events'],
  github: ['repo'],
};

/** The settings a provider needs before anyone can connect it (Settings says which are missing). */
export const PROVIDER_SETTINGS: Record<Provider, [string, string]> = {
  google: ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET'],
  github: ['GITHUB_CLIENT_ID', 'GITHUB_CLIENT_SECRET'],
};

export interface ProviderClient {
  provider: Provider;
  as: oauth.AuthorizationServer;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  /** Extra authorization parameters: Google gives a refresh token only for offline access, asked with consent. */
  authorizeParams: Record<string, string>;
  apiUrl: string;
  /** http endpoints are the tests' stand-ins; oauth4webapi refuses them unless told. */
  insecure: boolean;
}

const trim = (url: string) => url.replace(/\/+$/, '');

/** The provider's OAuth client from the settings, or null when it is not configured. */
export function providerClient(provider: Provider): ProviderClient | null {
  const cfg = config();
  const redirectUri = `${trim(cfg.APP_URL)}/api/connections/${provider}/callback`;
  if (provider === 'google') {
    if (!cfg.GOOGLE_CLIENT_ID || !cfg.GOOGLE_CLIENT_SECRET) return null;
    const accounts = trim(cfg.GOOGLE_ACCOUNTS_URL);
    const oauth2 = trim(cfg.GOOGLE_OAUTH_URL);
    return {
      provider,
      as: {
        issuer: 'https://accounts.google.com',
        authorization_endpoint: `${accounts}/o/oauth2/v2/auth`,
        token_endpoint: `${oauth2}/token`,
        revocation_endpoint: `${oauth2}/revoke`,
      },
      clientId: cfg.GOOGLE_CLIENT_ID,
      clientSecret: cfg.GOOGLE_CLIENT_SECRET,
      redirectUri,
      authorizeParams: { access_type: 'offline', prompt: 'consent' },
      apiUrl: trim(cfg.GOOGLE_API_URL),
      insecure: [accounts, oauth2, cfg.GOOGLE_API_URL].some((url) => url.startsWith('http:')),
    };
  }
  if (!cfg.GITHUB_CLIENT_ID || !cfg.GITHUB_CLIENT_SECRET) return null;
  const web = trim(cfg.GITHUB_URL);
  return {
    provider,
    as: { issuer: 'https://github.com', authorization_endpoint: `${web}/login/oauth/authorize`, token_endpoint: `${web}/login/oauth/access_token` },
    clientId: cfg.GITHUB_CLIENT_ID,
    clientSecret: cfg.GITHUB_CLIENT_SECRET,
    redirectUri,
    authorizeParams: {},
    apiUrl: trim(cfg.GITHUB_API_URL),
    insecure: [web, cfg.GITHUB_API_URL].some((url) => url.startsWith('http:')),
  };
}

/** Scopes as the token endpoint reports them: Google separates them with spaces, GitHub with commas. */
export const parseScopes = (scope: string | undefined, asked: string[]) => (scope ? scope.split(/[\s,]+/).filter(Boolean) : asked);
