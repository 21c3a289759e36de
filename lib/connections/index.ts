/**
 * Connected accounts: Google (Gmail drafts and sending, Calendar) and GitHub (issues and pull requests),
 * connected per workspace through OAuth 2.0 (authorization code with PKCE S256 and state, oauth4webapi),
 * tokens sealed at rest (lib/secrets), refreshed before expiry under a per-connection lease, revoked at the
 * provider on disconnect. The agent tools here are offered only where the workspace has the connection.
 */
export { completeConnection, disconnect, listConnections, startConnection, STATE_TTL_MS, workspaceHasConnection, type ConnectionView } from './oauth';
export { accessToken, ConnectionError, REFRESH_MARGIN_MS, tokenContext } from './tokens';
export { bookingEventId, calendarBusy, githubComment, githubCreateIssue, githubListIssues, gmailDraft, gmailSend, syncBookingToCalendar, type Email } from './api';
export { connectionTools, connectionToolsFor } from './tools';
export { isProvider, PROVIDER_SETTINGS, PROVIDERS, SCOPES, type Provider } from './providers';

import { tokenContext } from './tokens';
import type { SealedColumn } from '@/lib/secrets';

/** The sealed token columns, for the key rotation (scripts/rotate-secrets.ts). */
export const CONNECTION_SEALED_COLUMNS: SealedColumn[] = [
  { table: 'public.connections', key: 'id', column: 'access_token', context: (id) => tokenContext('access_token', id) },
  { table: 'public.connections', key: 'id', column: 'refresh_token', context: (id) => tokenContext('refresh_token', id) },
];
