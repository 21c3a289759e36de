import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as callbackRoute from '@/app/api/connections/[provider]/callback/route';
import * as startRoute from '@/app/api/workspaces/[workspaceId]/connections/route';
import { startFakeModelServer, useFakeModelEnv, type FakeModelServer } from '@/lib/agent/testing';
import { runAgent } from '@/lib/agent';
import { ApiError } from '@/lib/api';
import { actionTools, approveDecision, rejectDecision, submitAgentAction, undoDecision } from '@/lib/autonomy';
import { describeDecision } from '@/components/home/format';
import { stampResults } from '@/lib/cards';
import { approvalResult, composeDailyBrief } from '@/lib/home';
import { createTranslator } from '@/lib/i18n';
import { it as italian } from '@/lib/i18n/messages/it';
import { ACCESS_COOKIE, signAccessToken } from '@/lib/auth';
import { resetConfigForTests } from '@/lib/config';
import { asService, withUser, type SessionUser } from '@/lib/db';
import { workspacePolicy } from '@/lib/policy';
import { newKeyEntry, openSecret, parseKeyRing, requireKeyRing, resealColumn, sealedWith } from '@/lib/secrets';
import { createWorkspace, type Workspace } from '@/lib/workspaces';
import { setupTestDatabase } from '@/test/db';
import { createUser, joinWorkspace } from '@/test/fixtures';
import { startProviderStandIn, standInEnv, type StandIn } from '@/test/oauth-providers';
import {
  accessToken,
  calendarBusy,
  completeConnection,
  CONNECTION_SEALED_COLUMNS,
  connectionToolsFor,
  disconnect,
  githubComment,
  githubCreateIssue,
  githubListIssues,
  gmailDraft,
  listConnections,
  startConnection,
  syncBookingToCalendar,
  tokenContext,
  workspaceHasConnection,
  type Provider,
} from '.';

/**
 * Connected accounts end to end against stand-ins of Google's and GitHub's authorization, token,
 * revocation and API endpoints (test/oauth-providers.ts): the real OAuth client (oauth4webapi) does the
 * code flow with PKCE, the stand-in checks the client, the redirect URI, the challenge and the verifier,
 * and every API call carries a bearer token it checks.
 */

/** Points this process's configuration at the stand-in as both providers; returns the undo. */
function useProviderEnv(standIn: StandIn): () => void {
  const values = standInEnv(standIn);
  const saved = Object.fromEntries(Object.keys(values).map((k) => [k, process.env[k]]));
  Object.assign(process.env, values);
  resetConfigForTests();
  return () => {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    resetConfigForTests();
  };
}

setupTestDatabase();

let standIn: StandIn;
let fake: FakeModelServer;
let restoreEnv: () => void;
let restoreProviders: () => void;
let owner: SessionUser;
let admin: SessionUser;
let member: SessionUser;
let stranger: SessionUser;
let team: Workspace;
let appointmentId: string;

beforeAll(async () => {
  standIn = await startProviderStandIn();
  fake = await startFakeModelServer();
  restoreProviders = useProviderEnv(standIn);
  restoreEnv = useFakeModelEnv({ ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: fake.url, MODEL_BACKEND: 'anthropic', AGENT_MAX_RETRIES: '0' });
  const app = new URL(process.env.APP_URL ?? `http://localhost:${process.env.PORT ?? 3000}`).origin;
  standIn.redirectUris = { google: `${app}/api/connections/google/callback`, github: `${app}/api/connections/github/callback` };
  [owner, admin, member, stranger] = (await Promise.all(['owner', 'admin', 'member', 'stranger'].map((n) => createUser(n)))) as [SessionUser, SessionUser, SessionUser, SessionUser];
  team = await createWorkspace(owner, { name: 'Studio Luce', timeZone: 'Europe/Rome', locale: 'it', sector: 'hair_salon' });
  await joinWorkspace(owner, team.id, admin, 'admin');
  await joinWorkspace(owner, team.id, member);
  appointmentId = await asService(async (tx) => {
    const [customer] = await tx.query<{ id: string }>(
      `insert into public.customers (workspace_id, name, email, consent_messages) values ($1, 'Mario Rossi', 'mario.rossi@example.it', true) returning id`,
      [team.id],
    );
    const [service] = await tx.query<{ id: string }>(`insert into public.services (workspace_id, name, duration_minutes, price_cents) values ($1, 'Colore', 60, 5000) returning id`, [team.id]);
    const [staff] = await tx.query<{ id: string }>(`insert into public.staff (workspace_id, name) values ($1, 'Chiara Bellini') returning id`, [team.id]);
    const [appointment] = await tx.query<{ id: string }>(
      `insert into public.appointments (workspace_id, customer_id, service_id, staff_id, starts_at, ends_at, price_cents)
       values ($1, $2, $3, $4, '2026-12-10T09:00:00Z', '2026-12-10T10:00:00Z', 5000) returning id`,
      [team.id, customer!.id, service!.id, staff!.id],
    );
    return appointment!.id;
  });
});

afterAll(async () => {
  restoreEnv?.();
  restoreProviders?.();
  await standIn?.close();
  await fake?.close();
});

/** The browser's trip: the authorization URL, the stand-in's redirect back (with code and state), the callback URL. */
async function authorize(user: SessionUser, workspaceId: string, provider: Provider): Promise<URL> {
  const { authorizationUrl } = await startConnection(user, workspaceId, provider);
  const url = new URL(authorizationUrl);
  expect(url.searchParams.get('code_challenge_method')).toBe('S256');
  expect(url.searchParams.get('state')).toBeTruthy();
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  expect(response.status).toBe(302);
  return new URL(response.headers.get('location')!);
}

const storedTokens = (provider: Provider) =>
  asService((tx) =>
    tx.query<{ id: string; access_token: string; refresh_token: string | null }>(
      `select id, access_token, refresh_token from public.connections where workspace_id = $1 and provider = $2`,
      [team.id, provider],
    ),
  ).then((rows) => rows[0]);

const codeExchanges = () => standIn.tokenRequests.filter((r) => r.grantType === 'authorization_code').length;
const refreshes = () => standIn.tokenRequests.filter((r) => r.grantType === 'refresh_token').length;

describe('connecting', () => {
  it('shows each provider as not connected, and only owners and admins may start', async () => {
    const views = await listConnections(member, team.id);
    expect(views.map((v) => [v.provider, v.configured, v.connection])).toEqual([
      ['google', true, null],
      ['github', true, null],
    ]);
    await expect(startConnection(member, team.id, 'google')).rejects.toMatchObject({ status: 403 });
    await expect(startConnection(stranger, team.id, 'google')).rejects.toMatchObject({ status: 404 });
    await expect(listConnections(stranger, team.id)).rejects.toMatchObject({ status: 404 });
  });

  it('refuses a wrong state, another person’s state and a replayed one; the code is exchanged once', async () => {
    const callback = await authorize(admin, team.id, 'google');
    const forged = new URL(callback);
    forged.searchParams.set('state', 'not-the-state-we-sent');
    await expect(completeConnection(admin, 'google', forged)).rejects.toMatchObject({ status: 410 });
    // A callback opened by someone else's browser session is refused, and that state is spent.
    await expect(completeConnection(owner, 'google', callback)).rejects.toMatchObject({ status: 410 });
    await expect(completeConnection(admin, 'google', callback)).rejects.toMatchObject({ status: 410 });
    expect(codeExchanges()).toBe(0);
    expect(await workspaceHasConnection(team.id, 'google')).toBe(false);

    const good = await authorize(admin, team.id, 'google');
    expect(await completeConnection(admin, 'google', good)).toEqual({ workspaceId: team.id, outcome: 'connected' });
    await expect(completeConnection(admin, 'google', good)).rejects.toBeInstanceOf(ApiError);
    expect(codeExchanges()).toBe(1);

    const [google] = await listConnections(member, team.id);
    expect(google!.connection).toMatchObject({ account: 'owner@gmail.test', connectedBy: admin.id });
    expect(google!.connection!.scopes).toEqual(['https://www.googleapis.com/auth/gmail.compose', 'https://www.googleapis.com/auth/calendar.events']);
    expect(await workspaceHasConnection(team.id, 'google')).toBe(true);
  });

  it('says "denied" when the person refuses at the provider, and connects nothing', async () => {
    standIn.deny = true;
    const callback = await authorize(owner, team.id, 'github');
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(await completeConnection(owner, 'github', callback)).toEqual({ workspaceId: team.id, outcome: 'denied' });
    expect(await workspaceHasConnection(team.id, 'github')).toBe(false);
  });

  it('keeps the tokens sealed: no token in the table, unreadable by people, unopenable with another key', async () => {
    const row = (await storedTokens('google'))!;
    const { token } = await accessToken(team.id, 'google');
    expect(token).toMatch(/^google-at-/);
    for (const value of [row.access_token, row.refresh_token!]) {
      expect(value).toMatch(/^v1\./);
      expect(value).not.toContain('google-');
      expect(Buffer.from(value.split('.')[4]!, 'base64url').toString('latin1')).not.toContain('google-');
    }
    const dump = JSON.stringify(await asService((tx) => tx.query(`select * from public.connections`)));
    expect(dump).not.toContain(token);
    expect(openSecret(row.access_token, requireKeyRing(), tokenContext('access_token', row.id))).toBe(token);
    expect(() => openSecret(row.access_token, parseKeyRing(newKeyEntry('test')), tokenContext('access_token', row.id))).toThrow();
    // Moved to another row's place, a sealed token does not open either.
    expect(() => openSecret(row.access_token, requireKeyRing(), tokenContext('refresh_token', row.id))).toThrow();
    for (const user of [owner, member]) {
      await expect(withUser(user, (tx) => tx.query(`select access_token from public.connections`))).rejects.toThrow(/permission denied/);
      await expect(withUser(user, (tx) => tx.query(`select refresh_token from public.connections`))).rejects.toThrow(/permission denied/);
    }
  });
});

describe('rotating the key', () => {
  it('re-seals every token under the new key (scripts/rotate-secrets.ts lists these columns)', async () => {
    const env = requireKeyRing();
    const envEntry = `${env.current.id}:${env.current.key.toString('base64')}`;
    const nextEntry = newKeyEntry('next');
    const reseal = (ring: ReturnType<typeof parseKeyRing>) =>
      asService(async (tx) => {
        let changed = 0;
        for (const column of CONNECTION_SEALED_COLUMNS) changed += await resealColumn(tx, column, ring);
        return changed;
      });
    const { token } = await accessToken(team.id, 'google');
    expect(await reseal(parseKeyRing(`${nextEntry},${envEntry}`))).toBe(2);
    const row = (await storedTokens('google'))!;
    expect(sealedWith(row.access_token)).toBe('next');
    expect(sealedWith(row.refresh_token!)).toBe('next');
    expect(openSecret(row.access_token, parseKeyRing(nextEntry), tokenContext('access_token', row.id))).toBe(token);
    // And back under the environment's key, which the rest of this file runs with.
    expect(await reseal(parseKeyRing(`${envEntry},${nextEntry}`))).toBe(2);
    expect((await accessToken(team.id, 'google')).token).toBe(token);
  });
});

describe('using a connection', () => {
  it('writes a Gmail draft as a base64url RFC 822 message from the connected address', async () => {
    await gmailDraft(team.id, { to: 'mario.rossi@example.it', subject: 'Il tuo appuntamento', body: 'Ciao Mario, a domani alle 10!' });
    const draft = standIn.drafts.at(-1)!;
    const parsed = await simpleParser(Buffer.from(draft.raw, 'base64url'));
    expect(parsed.from?.text).toBe('owner@gmail.test');
    expect(parsed.to && !Array.isArray(parsed.to) ? parsed.to.text : '').toBe('mario.rossi@example.it');
    expect(parsed.subject).toBe('Il tuo appuntamento');
    expect(parsed.text?.trim()).toBe('Ciao Mario, a domani alle 10!');
    expect(parsed.messageId).toBeTruthy();
    expect(parsed.headers.get('mime-version')).toBe('1.0');
  });

  it('puts a booking in the calendar, updates the same event when it moves, and reads it back as busy', async () => {
    const created = await syncBookingToCalendar(team.id, appointmentId);
    expect(created.created).toBe(true);
    const event = standIn.events.get(created.eventId)!;
    expect(event).toMatchObject({
      summary: 'Colore — Mario Rossi',
      start: { dateTime: '2026-12-10T09:00:00.000Z', timeZone: 'Europe/Rome' },
      end: { dateTime: '2026-12-10T10:00:00.000Z', timeZone: 'Europe/Rome' },
      status: 'confirmed',
    });
    await asService((tx) => tx.query(`update public.appointments set starts_at = '2026-12-10T11:00:00Z', ends_at = '2026-12-10T12:00:00Z' where id = $1`, [appointmentId]));
    const moved = await syncBookingToCalendar(team.id, appointmentId);
    expect(moved).toMatchObject({ created: false, eventId: created.eventId });
    expect(standIn.events.size).toBe(1);
    expect(standIn.events.get(created.eventId)!.start).toEqual({ dateTime: '2026-12-10T11:00:00.000Z', timeZone: 'Europe/Rome' });
    expect(await calendarBusy(team.id, new Date('2026-12-10T00:00:00Z'), new Date('2026-12-11T00:00:00Z'))).toEqual([
      { start: '2026-12-10T11:00:00.000Z', end: '2026-12-10T12:00:00.000Z', summary: 'Colore — Mario Rossi' },
    ]);
    expect(await calendarBusy(team.id, new Date('2026-12-11T00:00:00Z'), new Date('2026-12-12T00:00:00Z'))).toEqual([]);
  });

  it('connects GitHub through the routes the browser takes, and opens, lists and comments on issues', async () => {
    const cookie = `${ACCESS_COOKIE}=${await signAccessToken(owner)}`;
    const started = await startRoute.POST(
      new Request(`http://localhost/api/workspaces/${team.id}/connections`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify({ provider: 'github' }) }),
      { params: Promise.resolve({ workspaceId: team.id }) },
    );
    expect(started.status).toBe(200);
    const { authorizationUrl } = (await started.json()).data as { authorizationUrl: string };
    const back = (await fetch(authorizationUrl, { redirect: 'manual' })).headers.get('location')!;
    const callback = (headers: Record<string, string>) => callbackRoute.GET(new Request(back, { headers }), { params: Promise.resolve({ provider: 'github' }) });
    expect((await callback({})).status).toBe(401);
    const done = await callback({ cookie });
    expect(done.status).toBe(303);
    expect(new URL(done.headers.get('location')!).pathname + new URL(done.headers.get('location')!).search).toBe(`/w/${team.id}/settings/connections?connected=github`);
    const replayed = await callback({ cookie });
    expect(replayed.status).toBe(410);
    expect((await replayed.json()).error.code).toBe('gone');

    const issue = await githubCreateIssue(team.id, 'studio-luce/site', 'Booking page is slow', 'Seen on phones.');
    expect(issue.number).toBe(1);
    expect(await githubListIssues(team.id, 'studio-luce/site', 'open')).toEqual([
      expect.objectContaining({ number: 1, title: 'Booking page is slow', pullRequest: false }),
    ]);
    await githubComment(team.id, 'studio-luce/site', 1, 'Fixed by caching the slots.');
    expect(standIn.comments).toEqual([{ repo: 'studio-luce/site', number: 1, body: 'Fixed by caching the slots.' }]);
    const [, github] = await listConnections(member, team.id);
    expect(github!.connection).toMatchObject({ account: 'octo-owner', scopes: ['repo'] });
  });
});

describe('refreshing', () => {
  const expire = () => {
    standIn.expireAccessTokens();
    return asService((tx) => tx.query(`update public.connections set access_expires_at = $2 where workspace_id = $1 and provider = 'google'`, [team.id, new Date(Date.now() - 1000).toISOString()]));
  };

  it('refreshes an expired token once before the call, however many calls wait for it', async () => {
    await expire();
    const before = refreshes();
    const drafts = standIn.drafts.length;
    await Promise.all(Array.from({ length: 5 }, (_, i) => gmailDraft(team.id, { to: 'mario.rossi@example.it', subject: `Draft ${i}`, body: 'Ciao' })));
    expect(refreshes() - before).toBe(1);
    const used = standIn.drafts.slice(drafts).map((d) => d.token);
    expect(used).toHaveLength(5);
    expect(new Set(used).size).toBe(1);
    // The new token is stored: the next call needs no refresh.
    await gmailDraft(team.id, { to: 'mario.rossi@example.it', subject: 'Again', body: 'Ciao' });
    expect(refreshes() - before).toBe(1);
  });

  it('refreshes once and retries when the provider refuses a token it had not said was expiring', async () => {
    standIn.expireAccessTokens();
    const before = refreshes();
    await gmailDraft(team.id, { to: 'mario.rossi@example.it', subject: 'After a 401', body: 'Ciao' });
    expect(refreshes() - before).toBe(1);
  });

  it('waits for another process that holds the refresh lease instead of spending the refresh token too', async () => {
    await expire();
    const row = (await storedTokens('google'))!;
    await asService((tx) => tx.query(`update public.connections set refresh_lease_owner = 'another-process', refresh_lease_until = $2 where id = $1`, [row.id, new Date(Date.now() + 20_000).toISOString()]));
    const before = refreshes();
    const waiting = accessToken(team.id, 'google');
    // The other process finishes: it stores its new token (sealed) and lets the lease go.
    const { sealSecret } = await import('@/lib/secrets');
    await asService((tx) =>
      tx.query(
        `update public.connections set access_token = $2, access_expires_at = $3, refresh_lease_owner = null, refresh_lease_until = null where id = $1`,
        [row.id, sealSecret('google-at-from-the-other-process', requireKeyRing(), tokenContext('access_token', row.id)), new Date(Date.now() + 3_600_000).toISOString()],
      ),
    );
    expect((await waiting).token).toBe('google-at-from-the-other-process');
    expect(refreshes()).toBe(before);
  });
});

describe("the agent's tools follow the workspace's connections", () => {
  const names = (request: { body: { tools?: Array<{ name: string }> } }) => (request.body.tools ?? []).map((t) => t.name);
  const crmTools = () => [...connectionToolsFor('crm'), actionTools.gmail_draft, actionTools.gmail_send];
  const run = () =>
    runAgent({
      system: 'You are the CRM planet agent.',
      firstMessage: 'Write to Mario Rossi (mario.rossi@example.it) that his colour appointment is confirmed.',
      tools: crmTools(),
      workspaceId: team.id,
      policy: workspacePolicy,
      planet: 'crm',
      trigger: 'test:connections',
      maxIterations: 3,
    });
  /** The model drafts to whoever the request named, by the aliases it was shown (each test its own words: the same call twice is one proposal). */
  const draftFromAliases = (words: string) => {
    fake.reset();
    fake.respond = (request) => {
      if (request.body.messages.length > 1) return { toolCalls: [{ name: 'finish', input: { summary: 'done' } }] };
      const name = /Cliente-[0-9A-F]{4}/.exec(request.text)![0];
      const email = /email-[0-9A-F]{4}/.exec(request.text)![0];
      return { toolCalls: [{ name: 'gmail_draft', input: { to: email, subject: 'Appuntamento', body: `Ciao ${name}, ${words}` } }] };
    };
  };
  const setCrmAutonomy = (autonomy: 'off' | 'propose' | 'auto') =>
    asService((tx) =>
      tx.query(
        `insert into public.workspace_planet_autonomy (workspace_id, planet, autonomy) values ($1, 'crm', $2)
         on conflict (workspace_id, planet) do update set autonomy = excluded.autonomy`,
        [team.id, autonomy],
      ),
    );
  const decisionsOf = (type: string) =>
    asService((tx) =>
      tx.query<{ id: string; status: string; tier: string; error: string | null; result: Record<string, unknown> | null }>(
        `select id, status, tier, error, result from public.agent_decisions where workspace_id = $1 and action_type = $2 order by created_at`,
        [team.id, type],
      ),
    );
  const lastDraft = async () => {
    const parsed = await simpleParser(Buffer.from(standIn.drafts.at(-1)!.raw, 'base64url'));
    return { to: parsed.to && !Array.isArray(parsed.to) ? parsed.to.text : '', text: parsed.text ?? '' };
  };
  const waitingDraft = async () => {
    const brief = await composeDailyBrief(owner, team.id);
    return brief.proposals.filter((p) => p.action_type === 'gmail_draft');
  };

  it('offers Gmail only where Google is connected', async () => {
    fake.reset();
    const personal = await asService((tx) => tx.query<{ id: string }>(`select id from public.workspaces where owner_id = $1 and is_personal`, [owner.id]));
    const solo = await runAgent({ system: 's', firstMessage: 'hi', tools: crmTools(), workspaceId: personal[0]!.id, policy: workspacePolicy, planet: 'crm', trigger: 'test', maxIterations: 1 });
    expect(solo.ran).toBe(true);
    expect(names(fake.requests[0]!)).not.toContain('gmail_draft');
    fake.reset();
    await run();
    expect(names(fake.requests[0]!)).toEqual(expect.arrayContaining(['gmail_draft', 'gmail_send']));
  });

  it('proposes the draft on the Home in plain words; Approve writes it at Google once, a wrong hash or a second Approve does nothing', async () => {
    draftFromAliases('il colore è confermato.');
    const drafts = standIn.drafts.length;
    const held = await run();
    expect(held.proposals.map((p) => p.tool)).toEqual(['gmail_draft']);
    expect(standIn.drafts.length).toBe(drafts);

    const [proposal] = await waitingDraft();
    expect(proposal).toMatchObject({ status: 'proposed', to: 'mario.rossi@example.it', message: 'Ciao Mario Rossi, il colore è confermato.' });
    const words = describeDecision({ actionType: 'gmail_draft', details: proposal!.details }, 'it', 'Europe/Rome', createTranslator(italian, 'it'));
    expect(words.what).toBe('Scrivi una bozza Gmail a mario.rossi@example.it: “Appuntamento”');
    // Its Web Push to the owner's devices is on its way with it.
    const pushes = await asService((tx) =>
      tx.query(`select 1 from private.executor_events where name = 'decisions/proposed' and data ->> 'decisionId' = $1`, [proposal!.id]),
    );
    expect(pushes).toHaveLength(1);

    await expect(approveDecision(owner, team.id, proposal!.id, { argsHash: 'f'.repeat(64) })).rejects.toMatchObject({ status: 409 });
    await expect(approveDecision(member, team.id, proposal!.id, { argsHash: proposal!.args_hash })).rejects.toMatchObject({ status: 403 });
    expect(standIn.drafts.length).toBe(drafts);

    await expect(approveDecision(owner, team.id, proposal!.id, { argsHash: proposal!.args_hash })).resolves.toMatchObject({ status: 'executed', delivery: null, undoable: false });
    expect(standIn.drafts.length).toBe(drafts + 1);
    expect(await lastDraft()).toEqual({ to: 'mario.rossi@example.it', text: expect.stringContaining('Ciao Mario Rossi, il colore è confermato.') });
    await expect(approveDecision(admin, team.id, proposal!.id, { argsHash: proposal!.args_hash })).rejects.toMatchObject({ status: 409 });
    expect(standIn.drafts.length).toBe(drafts + 1);

    // What Google did is not taken back from here, and Home says it was done.
    await expect(undoDecision(owner, team.id, proposal!.id)).rejects.toMatchObject({ status: 409 });
    expect((await decisionsOf('gmail_draft')).find((d) => d.id === proposal!.id)).toMatchObject({ status: 'executed', tier: 'propose', result: { draftId: expect.any(String) } });
    const brief = await composeDailyBrief(owner, team.id);
    expect(brief.done.find((g) => g.actionType === 'gmail_draft')?.items.map((d) => d.id)).toContain(proposal!.id);
    expect(await waitingDraft()).toEqual([]);
  });

  it('Ignore drops the proposal: nothing reaches Google, and it cannot be approved after', async () => {
    draftFromAliases('ci vediamo martedì.');
    const drafts = standIn.drafts.length;
    await run();
    const [proposal] = await waitingDraft();
    expect(proposal!.message).toBe('Ciao Mario Rossi, ci vediamo martedì.');
    await expect(rejectDecision(owner, team.id, proposal!.id)).resolves.toMatchObject({ status: 'rejected' });
    await expect(approveDecision(owner, team.id, proposal!.id, { argsHash: proposal!.args_hash })).rejects.toMatchObject({ status: 409 });
    expect(standIn.drafts.length).toBe(drafts);
    expect(await waitingDraft()).toEqual([]);
  });

  it('refuses while the planet is off, and drafts at once with the real name and address once it is automatic', async () => {
    await setCrmAutonomy('off');
    draftFromAliases('a domani.');
    const drafts = standIn.drafts.length;
    const before = (await decisionsOf('gmail_draft')).length;
    const refused = await run();
    expect(refused.toolCalls.find((c) => c.name === 'gmail_draft')).toMatchObject({ ok: false });
    expect(refused.proposals).toEqual([]);
    expect(standIn.drafts.length).toBe(drafts);
    expect(await decisionsOf('gmail_draft')).toHaveLength(before);

    await setCrmAutonomy('auto');
    draftFromAliases('il colore è confermato per martedì.');
    const done = await run();
    expect(done.toolCalls.find((c) => c.name === 'gmail_draft')).toMatchObject({ ok: true });
    expect(standIn.drafts.length).toBe(drafts + 1);
    expect(await lastDraft()).toEqual({ to: 'mario.rossi@example.it', text: expect.stringContaining('Ciao Mario Rossi, il colore è confermato per martedì.') });
    for (const request of fake.requests) {
      expect(request.text).not.toContain('Mario Rossi');
      expect(request.text).not.toContain('mario.rossi@example.it');
    }
    // "Done for you" tells the truth: the automatic draft left its executed decision.
    expect((await decisionsOf('gmail_draft')).at(-1)).toMatchObject({ status: 'executed', tier: 'auto' });
    await setCrmAutonomy('propose');
  });

  it('counts the same call twice in a day as one proposal, and the same call a week later as a new one', async () => {
    const comment = (now: Date) =>
      submitAgentAction({
        workspaceId: team.id,
        type: 'github_comment',
        input: { repo: 'studio-luce/sito', number: 7, body: 'Orari aggiornati.' },
        trigger: 'test:connections',
        now,
      });
    const today = new Date();
    const first = await comment(today);
    expect(first).toMatchObject({ status: 'proposed' });
    expect(await comment(new Date(today.getTime() + 60_000))).toMatchObject({ status: 'duplicate', decisionId: (first as { decisionId: string }).decisionId });
    expect(await comment(new Date(today.getTime() + 7 * 86_400_000))).toMatchObject({ status: 'proposed' });
    expect(await decisionsOf('github_comment')).toHaveLength(2);
  });

  it('proposes a GitHub issue with no body as a card that says what it opens, and opens it once on Approve', async () => {
    const issues = standIn.issues.length;
    const proposed = await submitAgentAction({
      workspaceId: team.id,
      type: 'github_create_issue',
      input: { repo: 'studio-luce/sito', title: 'Orari di dicembre' },
      trigger: 'test:connections',
      now: new Date(),
    });
    expect(proposed).toMatchObject({ status: 'proposed' });
    const brief = await composeDailyBrief(owner, team.id);
    const proposal = brief.proposals.find((p) => p.action_type === 'github_create_issue')!;
    const words = describeDecision({ actionType: 'github_create_issue', details: proposal.details }, 'it', 'Europe/Rome', createTranslator(italian, 'it'));
    expect(words.what).toBe('Apri la issue “Orari di dicembre” in studio-luce/sito su GitHub');
    const [card] = await stampResults([approvalResult({ ...proposal, argsHash: proposal.args_hash, expiresAt: proposal.expires_at }, words)]);
    expect(JSON.stringify(card)).toContain('Orari di dicembre');
    expect(standIn.issues.length).toBe(issues);

    await approveDecision(owner, team.id, proposal.id, { argsHash: proposal.args_hash });
    await expect(approveDecision(owner, team.id, proposal.id, { argsHash: proposal.args_hash })).rejects.toMatchObject({ status: 409 });
    expect(standIn.issues.slice(issues)).toEqual([expect.objectContaining({ repo: 'studio-luce/sito', title: 'Orari di dicembre', body: '' })]);
  });
});

describe('disconnecting', () => {
  it('is for owners and admins: a member is refused and nothing changes', async () => {
    const [google] = await listConnections(member, team.id);
    await expect(disconnect(member, team.id, google!.connection!.id)).rejects.toMatchObject({ status: 403 });
    await expect(disconnect(stranger, team.id, google!.connection!.id)).rejects.toMatchObject({ status: 404 });
    expect(await workspaceHasConnection(team.id, 'google')).toBe(true);
  });

  it('revokes the grant at Google and GitHub and deletes the tokens', async () => {
    const google = (await storedTokens('google'))!;
    const refreshToken = openSecret(google.refresh_token!, requireKeyRing(), tokenContext('refresh_token', google.id));
    const accessNow = (await accessToken(team.id, 'google')).token;
    expect(await disconnect(admin, team.id, google.id)).toEqual({ revokedAtProvider: true });
    expect(standIn.revocations.at(-1)).toEqual({ provider: 'google', token: refreshToken });
    expect(standIn.grantOf(accessNow)?.revoked).toBe(true);
    expect(await storedTokens('google')).toBeUndefined();
    await expect(gmailDraft(team.id, { to: 'mario.rossi@example.it', subject: 'x', body: 'x' })).rejects.toMatchObject({ kind: 'not_connected' });

    const github = (await storedTokens('github'))!;
    const githubToken = openSecret(github.access_token, requireKeyRing(), tokenContext('access_token', github.id));
    expect(await disconnect(owner, team.id, github.id)).toEqual({ revokedAtProvider: true });
    expect(standIn.revocations.at(-1)).toEqual({ provider: 'github', token: githubToken });
    expect(standIn.grantOf(githubToken)?.revoked).toBe(true);
    expect(await asService((tx) => tx.query(`select 1 from public.connections where workspace_id = $1`, [team.id]))).toEqual([]);
    expect((await listConnections(member, team.id)).map((v) => v.connection)).toEqual([null, null]);
  });

  it('fails an approval whose account was disconnected meanwhile, with the reason, and calls nobody', async () => {
    const sent = standIn.sent.length;
    const proposed = await submitAgentAction({
      workspaceId: team.id,
      type: 'gmail_send',
      input: { to: 'mario.rossi@example.it', subject: 'Conferma', body: 'A martedì.' },
      trigger: 'test:connections',
      now: new Date(),
      expect: 'propose',
    });
    expect(proposed).toMatchObject({ status: 'proposed' });
    const { decisionId, argsHash } = proposed as { decisionId: string; argsHash: string };
    const refusal = await approveDecision(owner, team.id, decisionId, { argsHash }).catch((error: ApiError) => error);
    expect(refusal).toMatchObject({ status: 409, message: expect.stringContaining('no Google connection') });
    expect(standIn.sent.length).toBe(sent);
    const [decision] = await asService((tx) => tx.query<{ status: string; error: string }>(`select status, error from public.agent_decisions where id = $1`, [decisionId]));
    expect(decision).toEqual({ status: 'failed', error: 'This workspace has no Google connection.' });
  });
});
