import 'server-only';
import * as oauth from 'oauth4webapi';
import MailComposer from 'nodemailer/lib/mail-composer';
import { asService } from '@/lib/db';
import type { ProviderClient, Provider } from './providers';
import { clientOptions, ConnectionError, withConnection } from './tokens';

const GITHUB_HEADERS = { accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28', 'user-agent': 'Multiverbe' };

async function json<T>(response: Response, what: string): Promise<T> {
  if (!response.ok) {
    const text = (await response.text()).slice(0, 300);
    throw new ConnectionError(`${what} failed: ${response.status} ${text}`, response.status === 401 ? 'reconnect' : 'provider');
  }
  return (await response.json()) as T;
}

/** The account a fresh token belongs to, named as the provider names it (the mailbox's address, the GitHub login). */
export async function accountName(client: ProviderClient, token: string): Promise<string> {
  const headers = { authorization: `Bearer ${token}` };
  if (client.provider === 'google') {
    const profile = await json<{ emailAddress: string }>(await fetch(`${client.apiUrl}/gmail/v1/users/me/profile`, { headers }), 'Reading the Gmail profile');
    return profile.emailAddress;
  }
  const user = await json<{ login: string }>(await fetch(`${client.apiUrl}/user`, { headers: { ...headers, ...GITHUB_HEADERS } }), 'Reading the GitHub user');
  return user.login;
}

/**
 * Ends the grant at the provider. Google: RFC 7009 revocation at its revoke endpoint. GitHub has no RFC
 * 7009 endpoint: its REST API deletes the app's grant for a token (`DELETE /applications/{client_id}/grant`,
 * authenticated as the app).
 */
export async function revokeAtProvider(client: ProviderClient, token: string): Promise<void> {
  if (client.provider === 'google') {
    const response = await oauth.revocationRequest(client.as, { client_id: client.clientId }, oauth.ClientSecretPost(client.clientSecret), token, clientOptions(client));
    await oauth.processRevocationResponse(response);
    return;
  }
  const response = await fetch(`${client.apiUrl}/applications/${encodeURIComponent(client.clientId)}/grant`, {
    method: 'DELETE',
    headers: { ...GITHUB_HEADERS, authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`, 'content-type': 'application/json' },
    body: JSON.stringify({ access_token: token }),
  });
  // 404: the grant is already gone, which is what was asked.
  if (response.status !== 204 && response.status !== 404) throw new ConnectionError(`GitHub refused the revocation: ${response.status}`, 'provider');
}

const call = (workspaceId: string, provider: Provider, path: string, init: RequestInit = {}) =>
  withConnection(workspaceId, provider, (token, apiUrl) =>
    fetch(`${apiUrl}${path}`, {
      ...init,
      headers: { ...(provider === 'github' ? GITHUB_HEADERS : {}), ...(init.body ? { 'content-type': 'application/json' } : {}), authorization: `Bearer ${token}` },
    }),
  );

// Gmail ---------------------------------------------------------------------------------------------------

export interface Email {
  to: string;
  subject: string;
  body: string;
}

/** The message as RFC 822 in base64url, as Gmail's `raw` takes it (nodemailer composes the MIME). */
async function rawMessage(workspaceId: string, email: Email): Promise<string> {
  const [row] = await asService((tx) =>
    tx.query<{ account: string }>(`select account from public.connections where workspace_id = $1 and provider = 'google'`, [workspaceId]),
  );
  if (!row) throw new ConnectionError('This workspace has no Google connection.', 'not_connected');
  const mime = await new MailComposer({ from: row.account, to: email.to, subject: email.subject, text: email.body }).compile().build();
  return mime.toString('base64url');
}

export async function gmailDraft(workspaceId: string, email: Email): Promise<{ draftId: string }> {
  const raw = await rawMessage(workspaceId, email);
  const draft = await json<{ id: string }>(
    await call(workspaceId, 'google', '/gmail/v1/users/me/drafts', { method: 'POST', body: JSON.stringify({ message: { raw } }) }),
    'Creating the Gmail draft',
  );
  return { draftId: draft.id };
}

export async function gmailSend(workspaceId: string, email: Email): Promise<{ messageId: string }> {
  const raw = await rawMessage(workspaceId, email);
  const sent = await json<{ id: string }>(
    await call(workspaceId, 'google', '/gmail/v1/users/me/messages/send', { method: 'POST', body: JSON.stringify({ raw }) }),
    'Sending with Gmail',
  );
  return { messageId: sent.id };
}

// Calendar ------------------------------------------------------------------------------------------------

/** A booking's event id in Google Calendar: chosen by us (base32hex: 0-9 and a-v), so syncing again updates it. */
export const bookingEventId = (appointmentId: string) => `mv${appointmentId.replace(/-/g, '')}`;

/**
 * Puts a booking in the connected calendar (primary): created the first time, updated after (moved,
 * cancelled). The event carries the service, the staff member and the customer, as the owner's own
 * calendar should.
 */
export async function syncBookingToCalendar(workspaceId: string, appointmentId: string): Promise<{ eventId: string; created: boolean; htmlLink?: string }> {
  const [booking] = await asService((tx) =>
    tx.query<{ starts_at: Date; ends_at: Date; status: string; service: string; staff: string; customer: string; time_zone: string }>(
      `select a.starts_at, a.ends_at, a.status, s.name as service, st.name as staff, c.name as customer, w.time_zone
         from public.appointments a
         join public.services s on s.workspace_id = a.workspace_id and s.id = a.service_id
         join public.staff st on st.workspace_id = a.workspace_id and st.id = a.staff_id
         join public.customers c on c.workspace_id = a.workspace_id and c.id = a.customer_id
         join public.workspaces w on w.id = a.workspace_id
        where a.workspace_id = $1 and a.id = $2`,
      [workspaceId, appointmentId],
    ),
  );
  if (!booking) throw new ConnectionError('No such booking in this workspace.', 'provider');
  const id = bookingEventId(appointmentId);
  const event = {
    summary: `${booking.service} — ${booking.customer}`,
    description: `With ${booking.staff}. Booked in Multiverbe.`,
    start: { dateTime: booking.starts_at.toISOString(), timeZone: booking.time_zone },
    end: { dateTime: booking.ends_at.toISOString(), timeZone: booking.time_zone },
    status: booking.status === 'cancelled' ? 'cancelled' : 'confirmed',
  };
  const base = '/calendar/v3/calendars/primary/events';
  const created = await call(workspaceId, 'google', base, { method: 'POST', body: JSON.stringify({ id, ...event }) });
  if (created.status !== 409) {
    const body = await json<{ id: string; htmlLink?: string }>(created, 'Creating the calendar event');
    return { eventId: body.id, created: true, htmlLink: body.htmlLink };
  }
  const updated = await json<{ id: string; htmlLink?: string }>(
    await call(workspaceId, 'google', `${base}/${id}`, { method: 'PATCH', body: JSON.stringify(event) }),
    'Updating the calendar event',
  );
  return { eventId: updated.id, created: false, htmlLink: updated.htmlLink };
}

/** The busy stretches of the connected calendar between two instants (events that block time). */
export async function calendarBusy(workspaceId: string, from: Date, to: Date): Promise<Array<{ start: string; end: string; summary: string }>> {
  const query = new URLSearchParams({ timeMin: from.toISOString(), timeMax: to.toISOString(), singleEvents: 'true', orderBy: 'startTime', maxResults: '250' });
  const list = await json<{ items?: Array<{ summary?: string; status?: string; transparency?: string; start?: { dateTime?: string; date?: string }; end?: { dateTime?: string; date?: string } }> }>(
    await call(workspaceId, 'google', `/calendar/v3/calendars/primary/events?${query}`),
    'Reading the calendar',
  );
  return (list.items ?? [])
    .filter((e) => e.status !== 'cancelled' && e.transparency !== 'transparent')
    .map((e) => ({ start: e.start?.dateTime ?? e.start?.date ?? '', end: e.end?.dateTime ?? e.end?.date ?? '', summary: e.summary ?? '' }));
}

// GitHub --------------------------------------------------------------------------------------------------

const repoPath = (repo: string) => {
  const [owner, name] = repo.split('/');
  return `/repos/${encodeURIComponent(owner!)}/${encodeURIComponent(name!)}`;
};

export async function githubListIssues(workspaceId: string, repo: string, state: 'open' | 'closed' | 'all') {
  const issues = await json<Array<{ number: number; title: string; state: string; html_url: string; pull_request?: unknown; user?: { login: string } }>>(
    await call(workspaceId, 'github', `${repoPath(repo)}/issues?state=${state}&per_page=50`),
    'Listing the issues',
  );
  return issues.map((i) => ({ number: i.number, title: i.title, state: i.state, url: i.html_url, pullRequest: Boolean(i.pull_request), author: i.user?.login }));
}

export async function githubCreateIssue(workspaceId: string, repo: string, title: string, body: string) {
  const issue = await json<{ number: number; html_url: string }>(
    await call(workspaceId, 'github', `${repoPath(repo)}/issues`, { method: 'POST', body: JSON.stringify({ title, body }) }),
    'Opening the issue',
  );
  return { number: issue.number, url: issue.html_url };
}

/** Comments on an issue or a pull request (a pull request is an issue in GitHub's API). */
export async function githubComment(workspaceId: string, repo: string, number: number, body: string) {
  const comment = await json<{ id: number; html_url: string }>(
    await call(workspaceId, 'github', `${repoPath(repo)}/issues/${number}/comments`, { method: 'POST', body: JSON.stringify({ body }) }),
    'Commenting',
  );
  return { id: comment.id, url: comment.html_url };
}
