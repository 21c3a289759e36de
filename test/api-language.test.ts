import { beforeAll, describe, expect, it, vi } from 'vitest';
import { saveQueueConcurrency } from '@/app/w/[workspaceId]/settings/api-keys/actions';
import * as exchangeRoute from '@/app/api/agent-auth/exchange/route';
import * as signUpRoute from '@/app/api/auth/sign-up/route';
import * as acceptRoute from '@/app/api/invitations/accept/route';
import * as topicsRoute from '@/app/api/topics/route';
import * as workspacesRoute from '@/app/api/workspaces/route';
import * as workspaceRoute from '@/app/api/workspaces/[workspaceId]/route';
import * as routinesRoute from '@/app/api/workspaces/[workspaceId]/routines/route';
import { ACCESS_COOKIE, signAccessToken } from '@/lib/auth';
import { asService, type SessionUser } from '@/lib/db';
import { LOCALE_COOKIE } from '@/lib/i18n';
import { en } from '@/lib/i18n/messages/en';
import { it as italian } from '@/lib/i18n/messages/it';
import { createInvitation, createWorkspace, type Workspace } from '@/lib/workspaces';
import { setupTestDatabase } from './db';
import { createUser, joinWorkspace } from './fixtures';

/**
 * API errors speak the reader's language: the app's own API as its pages do (the locale cookie, then
 * Accept-Language, then English), the topic-queue and agent APIs English unless Accept-Language asks.
 * English is exactly what it always was.
 */

setupTestDatabase();

// Server actions read the request through next/headers.
const request = vi.hoisted(() => ({ cookie: '', acceptLanguage: '' }));
vi.mock('next/headers', () => ({
  cookies: async () => ({
    get: (name: string) => {
      const pair = request.cookie.split('; ').find((part) => part.startsWith(`${name}=`));
      return pair ? { value: pair.slice(name.length + 1) } : undefined;
    },
  }),
  headers: async () => new Headers({ ...(request.cookie ? { cookie: request.cookie } : {}), ...(request.acceptLanguage ? { 'accept-language': request.acceptLanguage } : {}) }),
}));

type Handler = (req: Request, segment?: { params?: Promise<Record<string, string>> }) => Promise<Response>;

/** How a reader asks for a language: the Settings choice (cookie), the browser's Accept-Language, or nothing. */
const ITALIAN_COOKIE = { cookie: `${LOCALE_COOKIE}=it` };
const ITALIAN_BROWSER = { 'accept-language': 'it-IT,it;q=0.9,en;q=0.8' };
const ENGLISH_BROWSER = { 'accept-language': 'en-GB,en;q=0.9' };

async function call(handler: unknown, { user, headers = {}, params = {}, body }: { user?: SessionUser; headers?: Record<string, string>; params?: Record<string, string>; body?: unknown } = {}) {
  const cookies = [user && `${ACCESS_COOKIE}=${await signAccessToken(user)}`, headers.cookie].filter(Boolean).join('; ');
  const req = new Request('http://localhost/api/test', {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.7.${Math.floor(Math.random() * 250)}.1`, ...headers, ...(cookies ? { cookie: cookies } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const res = await (handler as Handler)(req, { params: Promise.resolve(params) });
  return { status: res.status, error: (await res.json()).error as { code: string; message: string; details?: { fieldErrors?: Record<string, string[]> } } };
}

let owner: SessionUser;
let member: SessionUser;
let team: Workspace;

beforeAll(async () => {
  [owner, member] = await Promise.all([createUser('language-owner'), createUser('language-member')]);
  team = await createWorkspace(owner, { name: 'Salone' });
  await joinWorkspace(owner, team.id, member);
});

describe('the app’s own API speaks the page’s language', () => {
  const badSignUp = { body: { email: 'not-an-email', password: 'short' } };

  it('in Italian when the locale cookie or the browser asks for it, with Italian field errors', async () => {
    for (const headers of [ITALIAN_COOKIE, ITALIAN_BROWSER, { ...ITALIAN_COOKIE, ...ENGLISH_BROWSER }]) {
      const res = await call(signUpRoute.POST, { ...badSignUp, headers });
      expect(res).toEqual({
        status: 422,
        error: {
          code: 'validation_failed',
          message: 'Il corpo della richiesta non è valido (email: Inserisci un indirizzo email valido).',
          details: { fieldErrors: { email: ['Inserisci un indirizzo email valido'], password: ['Usa almeno 10 caratteri'] } },
        },
      });
    }
  });

  it('in English, exactly as before, without a language, for an English browser, and for a cookie that names none we speak', async () => {
    for (const headers of [{}, ENGLISH_BROWSER, { cookie: `${LOCALE_COOKIE}=fr` }] as Record<string, string>[]) {
      const res = await call(signUpRoute.POST, { ...badSignUp, headers });
      expect(res).toEqual({
        status: 422,
        error: {
          code: 'validation_failed',
          message: 'The request body is invalid (email: Enter a valid email address).',
          details: { fieldErrors: { email: ['Enter a valid email address'], password: ['Use at least 10 characters'] } },
        },
      });
    }
  });

  it('zod’s own words in zod’s Italian; a schema’s key in ours', async () => {
    const body = { name: 5, timeZone: 'Mars/Olympus' };
    const italianRes = await call(workspacesRoute.POST, { user: owner, body, headers: ITALIAN_COOKIE });
    expect(italianRes.error.details!.fieldErrors).toEqual({ name: ['Input non valido: atteso string, ricevuto numero'], timeZone: ['Fuso orario sconosciuto'] });
    const englishRes = await call(workspacesRoute.POST, { user: owner, body });
    expect(englishRes.error.details!.fieldErrors).toEqual({ name: ['Invalid input: expected string, received number'], timeZone: ['Unknown time zone'] });
  });

  it('says the specific reason a lib function gave, in either language', async () => {
    const params = { workspaceId: team.id };
    const cases = [
      { res: () => call(workspaceRoute.PATCH, { user: member, params, body: { name: 'Nuovo' }, headers: ITALIAN_BROWSER }), status: 403, message: 'Solo il titolare e gli amministratori possono cambiare le impostazioni dello spazio di lavoro.' },
      { res: () => call(workspaceRoute.PATCH, { user: member, params, body: { name: 'New' } }), status: 403, message: 'Only the owner and admins can change the workspace settings.' },
      { res: () => call(workspaceRoute.GET, { user: member, params: { workspaceId: crypto.randomUUID() }, headers: ITALIAN_COOKIE }), status: 404, message: 'Questo spazio di lavoro non è stato trovato.' },
      { res: () => call(workspaceRoute.GET, { user: member, params: { workspaceId: crypto.randomUUID() } }), status: 404, message: 'This workspace was not found.' },
    ];
    for (const { res, status, message } of cases) expect(await res()).toMatchObject({ status, error: { message } });
  });

  it('fills a sentence’s values in, in the sentence and under its field', async () => {
    const body = { agentId: crypto.randomUUID(), name: 'Mattino', instruction: 'Riassumi le prenotazioni', schedule: { kind: 'cron', cron: '0 7 * *' } };
    const italianRes = await call(routinesRoute.POST, { user: owner, params: { workspaceId: team.id }, body, headers: ITALIAN_COOKIE });
    const italianSentence = '"0 7 * *" non è un’espressione cron: scrivi cinque campi (minuto ora giorno mese giorno della settimana), come "0 7 * * *" per ogni giorno alle 7:00.';
    expect(italianRes).toEqual({ status: 422, error: { code: 'validation_failed', message: italianSentence, details: { fieldErrors: { 'schedule.cron': [italianSentence] } } } });
    const englishRes = await call(routinesRoute.POST, { user: owner, params: { workspaceId: team.id }, body });
    const englishSentence = '"0 7 * *" is not a cron expression: write five fields (minute hour day month weekday), like "0 7 * * *" for every day at 7:00.';
    expect(englishRes.error).toEqual({ code: 'validation_failed', message: englishSentence, details: { fieldErrors: { 'schedule.cron': [englishSentence] } } });
  });

  it('says what our SQL refused in the reader’s language, read from the hint it raised', async () => {
    const invited = async () => (await createInvitation(owner, team.id, { email: `someone-${crypto.randomUUID()}@example.test`, role: 'member' })).link.split('/invite/')[1]!;
    const stranger = await createUser('language-stranger');
    const italianRes = await call(acceptRoute.POST, { user: stranger, body: { token: await invited() }, headers: ITALIAN_COOKIE });
    expect(italianRes).toEqual({ status: 403, error: { code: 'forbidden', message: 'Questo invito è stato inviato a un altro indirizzo email' } });
    const englishRes = await call(acceptRoute.POST, { user: stranger, body: { token: await invited() } });
    expect(englishRes).toEqual({ status: 403, error: { code: 'forbidden', message: 'This invitation was sent to another email address' } });
  });

  it('a server action says an ApiError in the page’s language', async () => {
    // A member's write is refused by RLS (42501): the ApiError it becomes, in the page's language.
    request.cookie = `${ACCESS_COOKIE}=${await signAccessToken(member)}; ${LOCALE_COOKIE}=it`;
    expect(await saveQueueConcurrency(team.id, 3)).toEqual({ error: 'Non hai il permesso di farlo.' });
    request.cookie = `${ACCESS_COOKIE}=${await signAccessToken(member)}`;
    request.acceptLanguage = ITALIAN_BROWSER['accept-language'];
    expect(await saveQueueConcurrency(team.id, 3)).toEqual({ error: 'Non hai il permesso di farlo.' });
    request.acceptLanguage = '';
    expect(await saveQueueConcurrency(team.id, 3)).toEqual({ error: 'You do not have permission to do that.' });
    request.cookie = `${LOCALE_COOKIE}=it`;
    expect(await saveQueueConcurrency(team.id, 3)).toEqual({ error: 'Accedi per continuare.' });
  });
});

describe('the topic-queue and agent APIs answer programs in English unless Accept-Language asks', () => {
  it('the topic API: the locale cookie does not change it, Accept-Language does', async () => {
    const body = { name: '', system_prompt: 'Rispondi in breve.' };
    const headers = { 'x-workspace-id': team.id };
    const withCookie = await call(topicsRoute.POST, { user: owner, body, headers: { ...headers, ...ITALIAN_COOKIE } });
    expect(withCookie).toMatchObject({ status: 422, error: { message: 'The request body is invalid (name: Give the topic a name).', details: { fieldErrors: { name: ['Give the topic a name'] } } } });
    const asked = await call(topicsRoute.POST, { user: owner, body, headers: { ...headers, ...ITALIAN_BROWSER } });
    expect(asked).toMatchObject({ status: 422, error: { message: 'Il corpo della richiesta non è valido (name: Dai un nome all’argomento).', details: { fieldErrors: { name: ['Dai un nome all’argomento'] } } } });
  });

  it('the agent API: the locale cookie does not change it, Accept-Language does', async () => {
    expect(await call(exchangeRoute.POST, { body: {}, headers: ITALIAN_COOKIE })).toMatchObject({ status: 401, error: { message: 'Send the agent key in the X-Agent-Key header.' } });
    expect(await call(exchangeRoute.POST, { body: {}, headers: ITALIAN_BROWSER })).toMatchObject({ status: 401, error: { message: 'Invia la chiave dell’agente nell’header X-Agent-Key.' } });
  });
});

describe('what our SQL raises', () => {
  it('names, as its HINT, a message both dictionaries have, whose English is the raised sentence', async () => {
    const functions = await asService((tx) => tx.query<{ name: string; source: string }>(`select proname as name, prosrc as source from pg_proc where prosrc ~ 'P04[0-9][0-9]'`));
    const raises = functions.flatMap(({ name, source }) =>
      [...source.matchAll(/raise\s+exception\s+'((?:[^']|'')*)'\s+using\s+([^;]*);/gi)].map(([, message, options]) => ({
        name,
        message: message!.replaceAll("''", "'"),
        errcode: options!.match(/errcode\s*=\s*'([^']+)'/)?.[1],
        hint: options!.match(/hint\s*=\s*'([^']+)'/)?.[1],
      })),
    );
    const ours = raises.filter((r) => r.errcode?.startsWith('P04'));
    expect(ours.length).toBeGreaterThanOrEqual(12);
    for (const raise of ours) {
      expect({ ...raise, key: raise.hint?.startsWith('api.') }).toMatchObject({ key: true });
      expect({ ...raise, english: en[raise.hint as keyof typeof en], italian: Boolean(italian[raise.hint as keyof typeof italian]) }).toMatchObject({ english: raise.message, italian: true });
    }
  });
});
