import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAgent, createAgentKey, exchangeAgentCredential } from '@/lib/agents';
import { publishArtifact } from '@/lib/artifacts';
import { ACCESS_COOKIE, signAccessToken, signIn } from '@/lib/auth';
import { clickAction, publishResults } from '@/lib/cards';
import { claimDeliveries, sendMessage } from '@/lib/chat';
import { asService } from '@/lib/db';
import { seedDemo } from '@/lib/demo';
import { createRoutine } from '@/lib/schedule';
import { createApiKey, createTopic, submitRequest, type Caller } from '@/lib/topics';
import { createInvitation } from '@/lib/workspaces';
import { setupTestDatabase } from './db';
import { createUser, joinWorkspace } from './fixtures';

/**
 * Every route handler under app/api (found by itself: a new route is covered without touching this
 * file) and every operation of the topic API's OpenAPI document, called the way Next calls them, with a
 * real credential and real ids of the seeded demo workspace, and then with each path, query and body
 * value broken in turn: a NUL character, an overlong value, the wrong type, an integer past 2^31, JSON
 * nested 20,000 deep, null, a value left out, a body that is not JSON. Whatever comes in, the answer is
 * never a 5xx and an error is in the envelope; a NUL the route reads is refused with a 4xx; and without
 * a credential every route that needs one answers 401 (the topic API: 403, as its contract says) before
 * it reads any input, so nothing about the input's schema reaches someone who is not signed in.
 *
 * Bodies come from the OpenAPI document's schemas for its operations and from `examples` for the
 * others; a route without an example gets a filler body and the same treatment, minus the NUL check.
 */

setupTestDatabase();

type Handler = (req: Request, segment?: { params?: Promise<Record<string, string>> }) => Promise<Response>;
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
type Method = (typeof METHODS)[number];

interface Operation {
  method: Method;
  /** `/api/workspaces/[workspaceId]/routines`: the route file's folder. */
  template: string;
  params: string[];
  handler: Handler;
}

const routeModules = import.meta.glob<Record<string, unknown>>('../app/api/**/route.ts', { eager: true });
const operations: Operation[] = Object.entries(routeModules).flatMap(([file, module]) => {
  const template = file.slice('../app'.length, -'/route.ts'.length);
  const params = [...template.matchAll(/\[([^\]]+)\]/g)].map((m) => m[1]!);
  return METHODS.filter((method) => typeof module[method] === 'function').map((method) => ({ method, template, params, handler: module[method] as Handler }));
});
const nameOf = (op: Operation) => `${op.method} ${op.template}`;

/** Routes that anyone may call, and why. Everything else must refuse a caller without a credential. */
const PUBLIC: Record<string, string> = {
  'POST /api/auth/sign-in': 'starts a session',
  'POST /api/auth/sign-up': 'creates the account a session is for',
  'POST /api/auth/password-reset': 'for someone who cannot sign in',
  'POST /api/auth/password-reset/confirm': 'the emailed token is the credential',
  'POST /api/auth/sign-out': 'clears whatever session cookies came with it, valid or not',
  'GET /api/health': 'for load balancers and uptime checks',
  'GET /api/openapi.json': 'describes the public topic API',
  'GET /api/inngest': 'Inngest signs its own requests (and without Inngest keys the endpoint is closed)',
  'POST /api/inngest': 'Inngest signs its own requests (and without Inngest keys the endpoint is closed)',
  'PUT /api/inngest': 'Inngest signs its own requests (and without Inngest keys the endpoint is closed)',
  'POST /api/webhooks/twilio/status': 'Twilio signs its own requests with the workspace’s auth token; anything else gets 403',
  'POST /api/webhooks/twilio/inbound/[workspaceId]': 'Twilio signs its requests: anything else is 403 and changes nothing (lib/inbound)',
  'POST /api/webhooks/email/[secret]': 'the secret in the URL is the credential: an unknown one is 404 (lib/inbound)',
};

type Credential = 'session' | 'agent' | 'agentKey' | 'apiKey' | 'none';

// ---------------------------------------------------------------------------------------------------
// The seeded world: the demo workspace, its owner, one of its agents, and one of everything the routes
// take an id of.

interface World {
  sessionCookie: string;
  agentToken: string;
  agentKey: string;
  apiKey: string;
  ids: Record<string, string>;
  /** A route's valid input; `contentType` for a route that reads something other than JSON (a CSV upload). */
  examples: Record<string, { query?: Record<string, string>; body?: unknown; contentType?: string }>;
  openapi: { paths: Record<string, Record<string, OpenApiOperation>>; components: { schemas: Record<string, JsonSchema> } };
}

interface JsonSchema {
  type?: string | string[];
  format?: string;
  pattern?: string;
  enum?: unknown[];
  minimum?: number;
  default?: unknown;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  $ref?: string;
}
interface OpenApiOperation {
  security?: unknown[];
  parameters?: { name: string; in: 'path' | 'query' | 'header'; schema: JsonSchema }[];
  requestBody?: { content: { 'application/json': { schema: JsonSchema } } };
}

let world: World;

beforeAll(async () => {
  const demo = (await seedDemo(new Date()))!;
  const owner = (await signIn({ email: demo.email, password: demo.password }, '10.0.0.1')).user;
  const workspaceId = demo.workspaceId;
  const member = await createUser('fuzz-member');
  await joinWorkspace(owner, workspaceId, member);
  const invitation = await createInvitation(owner, workspaceId, { email: 'fuzz-invitee@example.test', role: 'member' });

  const one = async (sql: string, params: unknown[] = []) => (await asService((tx) => tx.query<{ id: string }>(sql, params)))[0]?.id ?? randomUUID();
  const nova = await one(`select id from private.agents where owner_user_id = $1 and name = 'Nova'`, [owner.id]);
  const dm = await one(`select id from public.conversations where workspace_id = $1 and kind = 'dm'`, [workspaceId]);
  const channel = await one(`select id from public.conversations where workspace_id = $1 and kind = 'channel'`, [workspaceId]);
  const thread = await one(`select id from public.conversations where workspace_id = $1 and kind = 'thread'`, [workspaceId]);

  // MCP tools wait for a hosted agent's answer; for a local one whose laptop is away they answer at once.
  await createAgent(owner, { name: 'Iris', role: 'Marketer', runtime: 'local', backend: 'offline', workspaces: [workspaceId] });
  const { key: agentKey } = await createAgentKey(owner, nova, 'fuzz');
  const spareAgentKey = (await createAgentKey(owner, nova, 'spare')).credential.id;
  // Settings → Agents deletes the agent it is given: not Nova, whom other routes need.
  const spareAgent = (await createAgent(owner, { name: 'Spare', runtime: 'local', backend: 'offline', workspaces: [workspaceId] })).id;
  const agentToken = (await exchangeAgentCredential(agentKey)).token;

  // A message of the owner's (which wakes Nova: a delivery to claim) and a card with a button, clicked.
  const ownMessage = await sendMessage({ kind: 'person', user: owner }, dm, 'Nova, who is on the waitlist for Saturday?');
  const [delivery] = await claimDeliveries(nova, 'fuzz-connection', { limit: 1, leaseSeconds: 600 });
  const { message: cardMessage } = await publishResults(nova, {
    conversationId: dm,
    results: [{ type: 'hotel', data: { name: 'Hotel Roma' }, actions: [{ id: 'save', label: 'Save', verb: 'save' }] }],
  });
  const click = await clickAction(owner, cardMessage.id, { cardId: 'c1', actionId: 'save' });
  const { artifact } = await publishArtifact({ kind: 'person', user: owner }, dm, { kind: 'document', title: 'Plan', content: '# Plan\n\nStep one' });
  const routine = await createRoutine(owner, workspaceId, { agentId: nova, name: 'Morning check', instruction: 'Check the waitlist', schedule: { kind: 'interval', minutes: 60 } });

  const { secret: apiKey } = await createApiKey(owner, workspaceId, { name: 'fuzz' });
  const spareApiKey = (await createApiKey(owner, workspaceId, { name: 'spare' })).key.id;
  const caller: Caller = { kind: 'user', workspaceId, user: owner };
  const topic = await createTopic(caller, { name: 'coding', system_prompt: 'You are a helpful assistant.', summary: '', model: null });
  const { request } = await submitRequest(caller, { prompt: 'Hello', topic_id: topic.id, session_id: null, model: null, summarize: false });

  const appointment = (await asService((tx) =>
    tx.query<{ id: string; customer_id: string; service_id: string; staff_id: string }>(
      `select id, customer_id, service_id, staff_id from public.appointments where workspace_id = $1 and status = 'booked' and starts_at > now() order by starts_at limit 1`,
      [workspaceId],
    ),
  ))[0]!;
  const decision = (await asService((tx) =>
    tx.query<{ id: string; args_hash: string }>(
      `select id, args_hash from public.agent_decisions where workspace_id = $1 order by (status = 'proposed') desc, created_at desc limit 1`,
      [workspaceId],
    ),
  ))[0]!;
  const ids: Record<string, string> = {
    workspaceId,
    agentId: nova,
    conversationId: dm,
    messageId: ownMessage.id,
    artifactId: artifact.id,
    version: '1',
    deliveryId: delivery?.id ?? randomUUID(),
    eventId: click.eventId,
    planet: 'booking',
    appointmentId: appointment.id,
    decisionId: decision.id,
    action: 'approve',
    insightId: await one(`select id from public.workspace_insights where workspace_id = $1`, [workspaceId]),
    invitationId: invitation.invitation.id,
    userId: member.id,
    routineId: routine.id,
    dealId: await one(`select id from public.deals where workspace_id = $1 and status = 'open' limit 1`, [workspaceId]),
    runId: await one(`select id from public.agent_runs where workspace_id = $1`, [workspaceId]),
    planId: await one(`select id from public.commission_plans where workspace_id = $1`, [workspaceId]),
    modelId: await one(`select id from public.sales_territory_models where workspace_id = $1 and not active`, [workspaceId]),
    // Ids named alike by different routes: the route's own folder decides.
    '/api/agents/[agentId]/keys/[keyId] keyId': spareAgentKey,
    '/api/workspaces/[workspaceId]/api-keys/[keyId] keyId': spareApiKey,
    '/api/workspaces/[workspaceId]/agents/[agentId] agentId': spareAgent,
    '/api/workspaces/[workspaceId]/agents/[agentId]/keys/[keyId] keyId': spareAgentKey,
    '/api/workspaces/[workspaceId]/outbox/[messageId]/cancel messageId': await one(
      `select id from public.outbox_messages where workspace_id = $1 order by (status = 'queued') desc limit 1`,
      [workspaceId],
    ),
    '/api/cards/[messageId]/actions messageId': cardMessage.id,
    '/api/conversations/[conversationId]/members conversationId': channel,
    '/api/conversations/[conversationId]/resolve conversationId': thread,
    '/api/agents/me/conversations/[conversationId]/resolve conversationId': thread,
    '/api/topics/[id] id': topic.id,
    '/api/topics/[id]/summarize id': topic.id,
    '/api/requests/[id] id': request.id,
    '/api/sessions/[id] id': request.session_id,
    topic_id: topic.id,
    session_id: request.session_id,
    table: 'customers',
    customerId: appointment.customer_id,
    provider: 'google',
    connectionId: randomUUID(),
  };

  const before = new Date(Date.now() + 60_000).toISOString();
  const csvBody = 'Name,Phone\nFuzz Customer,+39 333 000 9999\n';
  const artifactExamples = (prefix: string) => ({
    [`GET ${prefix}/[artifactId]/comments`]: { query: { version: '1' } },
    [`POST ${prefix}/[artifactId]/comments`]: { body: { version: 1, line: 1, body: 'Looks good' } },
    [`GET ${prefix}/[artifactId]/diff`]: { query: { from: '1', to: '1' } },
    [`GET ${prefix}/[artifactId]/export`]: { query: { version: '1', format: 'file' } },
    [`POST ${prefix}/[artifactId]/restore`]: { body: { version: 1, note: 'back to the first' } },
    [`POST ${prefix}/[artifactId]/versions`]: { body: { content: '# Plan\n\nStep two', title: 'Plan', note: 'second step' } },
  });
  const examples: World['examples'] = {
    'POST /api/auth/sign-in': { body: { email: demo.email, password: 'not the password' } },
    'POST /api/auth/sign-up': { body: { email: 'fuzz-new@example.test', password: 'long enough password', displayName: 'Fuzz', locale: 'en', timeZone: 'Europe/Rome' } },
    'POST /api/auth/password-reset': { body: { email: demo.email } },
    'POST /api/auth/password-reset/confirm': { body: { token: 'x'.repeat(43), password: 'another long password' } },
    'GET /api/dev/mailbox': { query: { email: demo.email } },
    'POST /api/invitations/accept': { body: { token: 'x'.repeat(43) } },
    'GET /api/agents': { query: { workspaceId } },
    'POST /api/agents': { body: { name: 'Fuzz', role: 'Tester', capabilities: ['qa'], backend: 'offline', model: null, runtime: 'hosted', workspaces: [workspaceId] } },
    'PATCH /api/agents/[agentId]': { body: { role: 'Receptionist', capabilities: ['bookings', 'waitlist'] } },
    'POST /api/agents/[agentId]/keys': { body: { label: 'laptop' } },
    'POST /api/workspaces/[workspaceId]/agents': {
      body: { name: 'Fuzz desk', role: 'Tester', capabilities: ['qa'], instructions: 'Be brief.', backend: 'offline', model: null, runtime: 'hosted', workspaces: [workspaceId] },
    },
    'PATCH /api/workspaces/[workspaceId]/agents/[agentId]': { body: { role: 'Receptionist', instructions: 'Confirm every booking.', workspaces: [workspaceId] } },
    'POST /api/workspaces/[workspaceId]/agents/[agentId]/keys': { body: { label: 'laptop' } },
    ...artifactExamples('/api/artifacts'),
    ...artifactExamples('/api/agents/me/artifacts'),
    'POST /api/conversations/[conversationId]/artifacts': { body: { kind: 'document', title: 'Notes', content: '# Notes', body: 'Here are the notes', note: 'first' } },
    'POST /api/agents/me/artifacts': { body: { conversationId: dm, kind: 'document', title: 'Notes', content: '# Notes', body: 'Here are the notes', note: 'first' } },
    'POST /api/agents/me/conversations/[conversationId]/delegations': { body: { to: ['Atlas'], task: 'Check the waitlist', messageId: ownMessage.id } },
    'GET /api/agents/me/conversations/[conversationId]/messages': { query: { limit: '20', before: '100' } },
    'POST /api/agents/me/conversations/[conversationId]/messages': { body: { body: 'Marta and Sara.', done: false } },
    'POST /api/agents/me/conversations/[conversationId]/relay': { body: { result: 'All set' } },
    'POST /api/agents/me/conversations/[conversationId]/resolve': { body: { summary: 'Settled' } },
    'POST /api/agents/me/deliveries/[deliveryId]/complete': { body: { connectionId: 'fuzz-connection', outcome: 'passed', done: false } },
    'POST /api/agents/me/deliveries/[deliveryId]/extend': { body: { connectionId: 'fuzz-connection', leaseSeconds: 600 } },
    'POST /api/agents/me/deliveries/claim': { body: { connectionId: 'fuzz-connection', limit: 1, leaseSeconds: 30 } },
    'POST /api/agents/me/heartbeat': { body: { connectionId: 'fuzz-connection' } },
    'POST /api/agents/me/results/actions/[eventId]': { body: { status: 'done', outcome: 'Saved' } },
    'POST /api/agents/me/results': {
      body: {
        conversationId: dm,
        body: 'Found one',
        results: [{ type: 'hotel', template: 'hotel', data: { name: 'Hotel Roma', stars: 4, currency: 'EUR' }, actions: [{ id: 'save', label: 'Save', verb: 'save', data: { ref: 7 } }] }],
        done: false,
      },
    },
    'POST /api/cards/[messageId]/actions': { body: { cardId: 'c1', actionId: 'save', locale: 'en' } },
    'GET /api/cards': { query: { conversationId: dm } },
    'POST /api/conversations/[conversationId]/members': { body: { userIds: [member.id], agentIds: [] } },
    'POST /api/conversations/[conversationId]/messages/[messageId]/reactions': { body: { emoji: '👍' } },
    'DELETE /api/conversations/[conversationId]/messages/[messageId]/reactions': { query: { emoji: '👍' } },
    'PATCH /api/conversations/[conversationId]/messages/[messageId]': { body: { body: 'Nova, who is on the waitlist for Sunday?' } },
    'GET /api/conversations/[conversationId]/messages': { query: { limit: '20', before: '100' } },
    'POST /api/conversations/[conversationId]/messages': { body: { body: 'Thanks, Nova.' } },
    'POST /api/conversations/[conversationId]/read': { body: { seq: 1 } },
    'POST /api/conversations/[conversationId]/resolve': { body: { summary: 'Settled' } },
    'GET /api/conversations': { query: { workspaceId } },
    'POST /api/conversations': { body: { kind: 'channel', workspaceId, name: 'fuzz', visibility: 'public', userIds: [member.id], agentIds: [nova] } },
    'GET /api/events': { query: { workspaceId } },
    'GET /api/home/daily-brief': { query: { workspace_id: workspaceId } },
    'GET /api/home/prefs': { query: { workspace_id: workspaceId } },
    'PUT /api/home/prefs': { query: { workspace_id: workspaceId }, body: { sections: ['needs', 'done', 'planets'], pinnedSections: [], planets: ['booking', 'crm'], pinnedPlanets: ['booking'] } },
    'POST /api/mcp': { body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ask_iris', arguments: { task: 'Draft a post for Saturday', wait_seconds: 0 } } } },
    'POST /api/workspaces': { body: { name: 'Fuzz', timeZone: 'Europe/Rome', locale: 'en', sector: 'hair_salon' } },
    'PATCH /api/workspaces/[workspaceId]': { body: { name: 'Studio Aurora', timeZone: 'Europe/Rome', locale: 'it', sector: 'hair_salon' } },
    'POST /api/workspaces/[workspaceId]/api-keys': { body: { name: 'Booking site' } },
    'GET /api/workspaces/[workspaceId]/appointments': { query: { from: new Date().toISOString(), to: before, staffId: appointment.staff_id, status: 'booked' } },
    'POST /api/workspaces/[workspaceId]/appointments': {
      body: { customerId: appointment.customer_id, serviceId: appointment.service_id, staffId: appointment.staff_id, startsAt: new Date(Date.now() + 3 * 86_400_000).toISOString() },
    },
    'PATCH /api/workspaces/[workspaceId]/appointments/[appointmentId]': { body: { status: 'confirmed' } },
    'GET /api/workspaces/[workspaceId]/deals': { query: { owner: 'none' } },
    'PATCH /api/workspaces/[workspaceId]/deals/[dealId]': { body: { status: 'open' } },
    'POST /api/workspaces/[workspaceId]/deals': { body: { title: 'Fuzz deal', valueCents: 1000, city: 'Como', source: 'referral' } },
    'POST /api/workspaces/[workspaceId]/sales/commission/plans': { body: { name: 'Fuzz plan', period: 'month', baseRateBp: 800, tiers: [{ fromPct: 100, rateBp: 1200 }], capCents: 50000 } },
    'PATCH /api/workspaces/[workspaceId]/sales/commission/plans/[planId]': { body: { baseRateBp: 800 } },
    'POST /api/workspaces/[workspaceId]/sales/territories/models': { body: { name: 'Fuzz model' } },
    // An inactive model's territory moves nothing, so the other routes keep the demo's owners.
    'POST /api/workspaces/[workspaceId]/sales/territories/models/[modelId]/territories': {
      body: { name: 'Fuzz territory', ownerUserId: member.id, rules: [{ field: 'city', value: 'Como' }], apply: false },
    },
    'PATCH /api/workspaces/[workspaceId]/autonomy': { body: { planet: 'booking', autonomy: 'propose', paused: false } },
    'POST /api/workspaces/[workspaceId]/decisions/[decisionId]/[action]': { body: { argsHash: decision.args_hash } },
    'POST /api/push/subscriptions': { body: { endpoint: 'https://push.example.test/fuzz-device', keys: { p256dh: `B${'A'.repeat(86)}`, auth: 'A'.repeat(22) } } },
    'DELETE /api/push/subscriptions': { body: { endpoint: 'https://push.example.test/fuzz-device' } },
    'POST /api/push/subscriptions/status': { body: { endpoint: 'https://push.example.test/fuzz-device' } },
    'GET /api/workspaces/[workspaceId]/decisions': { query: { status: 'proposed', tier: 'propose', planet: 'booking', limit: '10', before } },
    'PATCH /api/workspaces/[workspaceId]/insights/[insightId]': { body: { status: 'seen' } },
    'GET /api/workspaces/[workspaceId]/insights': { query: { planet: 'booking', days: '14', include_dismissed: 'true' } },
    'POST /api/workspaces/[workspaceId]/invitations': { body: { email: 'fuzz-guest@example.test', role: 'member' } },
    'PATCH /api/workspaces/[workspaceId]/members/[userId]': { body: { role: 'admin' } },
    'PUT /api/workspaces/[workspaceId]/channels': { body: { dailyCap: 150 } },
    'GET /api/workspaces/[workspaceId]/outbox': { query: { status: 'queued', limit: '10', before } },
    'POST /api/workspaces/[workspaceId]/routines': {
      body: { agentId: nova, name: 'Evening check', instruction: 'Check tomorrow', schedule: { kind: 'interval', minutes: 120 }, enabled: true },
    },
    'PATCH /api/workspaces/[workspaceId]/routines/[routineId]': { body: { name: 'Morning check', instruction: 'Check the waitlist', schedule: { kind: 'cron', cron: '0 7 * * *' }, enabled: true } },
    'POST /api/workspaces/[workspaceId]/connections': { body: { provider: 'google' } },
    'GET /api/connections/[provider]/callback': { query: { code: 'fuzz-code', state: 'fuzz-state' } },
    'GET /api/workspaces/[workspaceId]/usage': { query: { month: new Date().toISOString().slice(0, 7), limit: '10', before } },
    'PATCH /api/workspaces/[workspaceId]/customers/[customerId]': { body: { consentMarketing: true, consentMessages: true, notes: 'Prefers mornings' } },
    // A name that is not theirs: the demo customer stays for the other routes (erasure itself: lib/customers' tests).
    'POST /api/workspaces/[workspaceId]/customers/[customerId]/erase': { body: { confirmName: 'Not their name' } },
    // The file itself as the body, as `curl --data-binary @customers.csv` sends it; the form upload is lib/imports' tests'.
    'POST /api/workspaces/[workspaceId]/imports': { query: { table: 'customers', mapping: '{"name":0,"phone":1}' }, body: { raw: csvBody }, contentType: 'text/csv' },
    'POST /api/workspaces/[workspaceId]/imports/preview': { query: { table: 'customers' }, body: { raw: csvBody }, contentType: 'text/csv' },
  };

  const { GET: openapiRoute } = routeModules['../app/api/openapi.json/route.ts'] as { GET: Handler };
  const openapi = (await (await openapiRoute(new Request('http://localhost/api/openapi.json'))).json()) as World['openapi'];

  world = {
    sessionCookie: `${ACCESS_COOKIE}=${await signAccessToken(owner)}`,
    agentToken,
    agentKey,
    apiKey,
    ids,
    examples,
    openapi,
  };
});

// ---------------------------------------------------------------------------------------------------
// The topic API's document: its operations, which key they need, and valid inputs made from its schemas.

const openApiTemplate = (path: string) => path.replace(/\{([^}]+)\}/g, '[$1]');

function openApiOperation(op: Operation): OpenApiOperation | undefined {
  const path = Object.keys(world.openapi.paths).find((p) => openApiTemplate(p) === op.template);
  return path ? world.openapi.paths[path]![op.method.toLowerCase()] : undefined;
}

/** A value that fits `schema`, with the world's real ids where a field names one. */
function valueOf(schema: JsonSchema, field: string): unknown {
  if (schema.$ref) return valueOf(world.openapi.components.schemas[schema.$ref.split('/').pop()!]!, field);
  if (world.ids[field]) return world.ids[field];
  if (schema.enum) return schema.enum[0];
  if (schema.anyOf) return valueOf(schema.anyOf[0]!, field);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([key, property]) => [key, valueOf(property, key)]));
    case 'array':
      return schema.items ? [valueOf(schema.items, field)] : [];
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return schema.default ?? false;
    default:
      if (schema.pattern?.startsWith('^claude-')) return 'claude-sonnet-4-6';
      if (schema.format === 'uuid') return randomUUID();
      return `fuzz ${field}`;
  }
}

interface Inputs {
  params: Record<string, string>;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** A value to send as JSON, or `{ raw }` to send as it is. */
  body?: unknown;
}

function validInputs(op: Operation): Inputs {
  const params = Object.fromEntries(op.params.map((p) => [p, world.ids[`${op.template} ${p}`] ?? world.ids[p] ?? randomUUID()]));
  const described = openApiOperation(op);
  if (described) {
    const query: Record<string, string> = {};
    const headers: Record<string, string> = {};
    for (const parameter of described.parameters ?? []) {
      if (parameter.in === 'query') query[parameter.name] = String(valueOf(parameter.schema, parameter.name));
      if (parameter.in === 'header') headers[parameter.name] = randomUUID();
    }
    const schema = described.requestBody?.content['application/json'].schema;
    return { params, query, headers, body: schema ? valueOf(schema, '') : undefined };
  }
  const example = world.examples[nameOf(op)] ?? {};
  const body = example.body ?? (op.method === 'GET' || op.method === 'DELETE' ? undefined : { name: 'fuzz', body: 'fuzz' });
  return { params, query: { ...example.query }, headers: {}, body };
}

function credentialOf(op: Operation): Credential {
  if (PUBLIC[nameOf(op)]) return 'none';
  if (op.template === '/api/agent-auth/exchange') return 'agentKey';
  if (op.template.startsWith('/api/agents/me')) return 'agent';
  if (op.template === '/api/mcp') return 'apiKey';
  const described = openApiOperation(op);
  if (described) return described.security?.length === 0 ? 'none' : 'apiKey';
  return 'session';
}

function credentialHeaders(op: Operation, credential: Credential): Record<string, string> {
  switch (credential) {
    case 'session':
      return { cookie: world.sessionCookie };
    case 'agent':
      return { authorization: `Bearer ${world.agentToken}` };
    case 'agentKey':
      return { 'x-agent-key': world.agentKey };
    case 'apiKey':
      return op.template === '/api/mcp' ? { authorization: `Bearer ${world.apiKey}` } : { 'x-api-key': world.apiKey };
    case 'none':
      return {};
  }
}

/** The answer to a caller without a credential: 401, and 403 on the topic API, whose contract says so. */
const unauthenticatedStatus = (op: Operation) => (openApiOperation(op) ? 403 : 401);

// ---------------------------------------------------------------------------------------------------
// Broken inputs.

const LONG = 'x'.repeat(300_000);
const NUL = 'fu\u0000zz';

type Mutation = 'nul' | 'overlong' | 'wrong type' | 'int overflow' | 'deep' | 'null' | 'missing';
/** Stands for JSON nested 20,000 levels deep, written into the body's text: deeper than recursion (JSON.stringify) survives. */
const DEEP = '\u2063deep\u2063';
const DEEP_JSON = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;

function mutateLeaf(value: unknown, mutation: Mutation): unknown {
  switch (mutation) {
    case 'nul':
      return typeof value === 'string' ? `${value.slice(0, 1)}\u0000${value.slice(1)}` : NUL;
    case 'overlong':
      return typeof value === 'string' ? LONG : Array.isArray(value) ? Array.from({ length: 5000 }, () => value[0] ?? 1) : 1e300;
    case 'wrong type':
      if (typeof value === 'string') return 42;
      if (typeof value === 'number') return 'forty-two';
      if (typeof value === 'boolean') return 'yes';
      return Array.isArray(value) ? { 0: value[0] } : [value];
    case 'int overflow':
      return 2 ** 31;
    case 'deep':
      return DEEP;
    case 'null':
      return null;
    case 'missing':
      return undefined;
  }
}

/** The ways to break a value: those that fit its type (any value may be replaced by deep nesting, null or nothing). */
function mutationsOf(value: unknown): Mutation[] {
  if (typeof value === 'string') return ['nul', 'overlong', 'wrong type', 'deep', 'null', 'missing'];
  if (typeof value === 'number') return ['nul', 'int overflow', 'overlong', 'wrong type', 'deep', 'null', 'missing'];
  if (Array.isArray(value)) return ['overlong', 'deep', 'wrong type', 'null', 'missing'];
  return ['nul', 'deep', 'wrong type', 'null', 'missing'];
}

const valueAt = (value: unknown, path: (string | number)[]) => path.reduce<unknown>((v, key) => (v as Record<string | number, unknown>)[key], value);

/** Every path to a value in `value` (object keys and array indexes), leaves and containers alike. */
function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== 'object') return prefix.length ? [prefix] : [];
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
  return [...(prefix.length ? [prefix] : []), ...entries.flatMap(([key, v]) => pathsOf(v, [...prefix, key]))];
}

function withChange(value: unknown, path: (string | number)[], change: (old: unknown) => unknown): unknown {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  const next = change(parent[last]);
  if (next === undefined) {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete parent[last];
  } else parent[last] = next;
  return copy;
}

interface Case {
  name: string;
  credential: boolean;
  inputs: Inputs;
  /** The input carries a NUL character somewhere the route reads. */
  nul?: boolean;
}

function casesOf(op: Operation): Case[] {
  const valid = validInputs(op);
  // Only a body the route is known to read must have its NUL refused; the filler sent to others may be ignored.
  // A file (a CSV upload) is read as rows: a NUL in it is that row's problem, which the answer reports,
  // not a refusal of the request; it must still never be a 5xx.
  const file = Boolean(world.examples[nameOf(op)]?.contentType);
  const bodyIsRead = !file && Boolean(openApiOperation(op)?.requestBody ?? world.examples[nameOf(op)]?.body);
  // MCP's JSON-RPC id is only echoed back, never stored.
  const echoedOnly = (path: (string | number)[]) => op.template === '/api/mcp' && path.join('.') === 'id';
  const cases: Case[] = [];
  const add = (name: string, inputs: Partial<Inputs>, nul = false) => cases.push({ name, credential: true, inputs: { ...valid, ...inputs }, nul });

  const numeric = (value: string) => /^\d+$/.test(value);
  for (const param of op.params) {
    const value = valid.params[param]!;
    for (const [name, broken] of [
      ['nul', NUL],
      ['overlong', LONG.slice(0, 5000)],
      ['not an id', 'not-an-id'],
      ...(numeric(value) ? [['negative', '-1'], ['int overflow', '2147483648'], ['fraction', '1.5']] : [['unknown id', randomUUID()]]),
    ] as const) {
      add(`path ${param}: ${name}`, { params: { ...valid.params, [param]: broken } }, name === 'nul');
    }
  }
  for (const key of Object.keys(valid.query)) {
    const value = valid.query[key]!;
    for (const [name, broken] of [
      ['nul', `${value.slice(0, 1)}\u0000${value.slice(1)}`],
      ['overlong', LONG.slice(0, 50_000)],
      ['wrong type', 'forty-two'],
      ['empty', ''],
      ...(numeric(value) ? [['int overflow', '2147483648'], ['negative', '-1']] : []),
    ] as const) {
      add(`query ${key}: ${name}`, { query: { ...valid.query, [key]: broken } }, name === 'nul');
    }
    const { [key]: _, ...rest } = valid.query;
    add(`query ${key}: missing`, { query: rest });
  }
  for (const key of Object.keys(valid.headers)) add(`header ${key}: overlong`, { headers: { ...valid.headers, [key]: LONG.slice(0, 5000) } });
  if (valid.body !== undefined) {
    for (const path of pathsOf(valid.body)) {
      for (const mutation of mutationsOf(valueAt(valid.body, path))) {
        const nul = mutation === 'nul' && bodyIsRead && !echoedOnly(path);
        add(`body ${path.join('.')}: ${mutation}`, { body: withChange(valid.body, path, (old) => mutateLeaf(old, mutation)) }, nul);
      }
    }
    add('body: a NUL in a key', { body: { ...(valid.body as object), ['fu\u0000zz']: 1 } }, bodyIsRead);
    add('body: a string', { body: NUL }, bodyIsRead);
    add('body: an array', { body: [valid.body] });
    add('body: nested deep', { body: { ...(valid.body as object), deep: DEEP } });
    add('body: empty', { body: { raw: '' } });
    add('body: not JSON', { body: { raw: '{"name": "fuzz"' } });
    const text = (valid.body as { raw?: unknown }).raw;
    if (file && typeof text === 'string') add('body: a NUL inside a cell', { body: { raw: text.replace('\n', '\nX\u0000') } });
  }
  // Without a credential the input must not matter: valid, or broken everywhere at once.
  const broken: Inputs = {
    params: Object.fromEntries(op.params.map((p) => [p, NUL])),
    query: Object.fromEntries(Object.keys(valid.query).map((k) => [k, NUL])),
    headers: {},
    body: { raw: '{"broken": ' },
  };
  cases.push({ name: 'no credential', credential: false, inputs: valid });
  cases.push({ name: 'no credential, broken input', credential: false, inputs: broken });
  cases.push({ name: 'no credential, NUL body', credential: false, inputs: { ...broken, body: { [NUL]: NUL } } });
  // The valid request last: it may delete what the others read.
  cases.push({ name: 'valid', credential: true, inputs: valid });
  return cases;
}

// ---------------------------------------------------------------------------------------------------
// Calling a route and judging the answer.

async function call(op: Operation, c: Case): Promise<{ status: number; body: unknown }> {
  const credential = credentialOf(op);
  const url = new URL(`http://localhost${op.template.replace(/\[([^\]]+)\]/g, (_, p: string) => encodeURIComponent(c.inputs.params[p] ?? ''))}`);
  for (const [key, value] of Object.entries(c.inputs.query)) url.searchParams.set(key, value);
  const headers: Record<string, string> = {
    accept: 'application/json, text/event-stream',
    'content-type': world.examples[nameOf(op)]?.contentType ?? 'application/json',
    'x-forwarded-for': '10.1.2.3',
    ...c.inputs.headers,
    ...(c.credential ? credentialHeaders(op, credential) : {}),
  };
  const raw = c.inputs.body as { raw?: string } | undefined;
  const body =
    op.method === 'GET' || c.inputs.body === undefined
      ? undefined
      : raw && typeof raw === 'object' && 'raw' in raw
        ? raw.raw
        : JSON.stringify(c.inputs.body).replace(`"${DEEP}"`, DEEP_JSON);
  const aborted = new AbortController();
  try {
    const response = await op.handler(new Request(url, { method: op.method, headers, body, signal: aborted.signal }), { params: Promise.resolve(c.inputs.params) });
    const type = response.headers.get('content-type') ?? '';
    // Streams (server-sent events) and downloads are not read: their status and headers are the answer.
    const parsed = type.includes('application/json') ? await response.json().catch(() => undefined) : undefined;
    if (!parsed) await response.body?.cancel();
    return { status: response.status, body: parsed };
  } finally {
    aborted.abort();
  }
}

interface ErrorEnvelope {
  success: false;
  data: null;
  error: { code: string; message: string; details?: unknown };
}
const isErrorEnvelope = (body: unknown): body is ErrorEnvelope => {
  const b = body as ErrorEnvelope | undefined;
  return b?.success === false && b.data === null && typeof b.error?.code === 'string' && typeof b.error.message === 'string';
};

/** MCP answers in JSON-RPC: a refusal is a JSON-RPC error or a tool result marked as an error. */
const isMcpRefusal = (body: unknown) => {
  const b = body as { error?: unknown; result?: { isError?: boolean } } | undefined;
  return Boolean(b?.error || b?.result?.isError);
};

function problemsOf(op: Operation, c: Case, answer: { status: number; body: unknown }): string | undefined {
  const { status, body } = answer;
  const mcp = op.template === '/api/mcp';
  if (status >= 500) return `answered ${status}`;
  if (!c.credential && credentialOf(op) !== 'none') {
    // 405 says only that the method is not served, nothing about the input.
    if (status === 405) return undefined;
    if (status !== unauthenticatedStatus(op)) return `answered ${status} instead of ${unauthenticatedStatus(op)} without a credential: ${JSON.stringify(body)}`;
    const details = mcp ? undefined : (body as ErrorEnvelope | undefined)?.error?.details;
    if (details !== undefined) return `told a caller without a credential about its input: ${JSON.stringify(details)}`;
  }
  if (status >= 400 && !mcp && !isErrorEnvelope(body)) return `answered ${status} outside the envelope: ${JSON.stringify(body)}`;
  if (c.nul && c.credential) {
    if (mcp ? status < 400 && !isMcpRefusal(body) : status < 400) return `accepted a NUL character (${status})`;
  }
  return undefined;
}

/** Deletions after everything else (they remove what other routes read), the workspace itself last. */
const order = (op: Operation) => (op.method !== 'DELETE' ? 0 : op.template === '/api/workspaces/[workspaceId]' ? 2 : 1);
const ordered = [...operations].sort((a, b) => order(a) - order(b));

describe('every API route, fuzzed', () => {
  it('finds the routes, and every operation of the OpenAPI document is one of them', () => {
    expect(operations.length).toBeGreaterThan(100);
    const found = new Set(operations.map(nameOf));
    const described = Object.entries(world.openapi.paths).flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${openApiTemplate(path)}`));
    expect(described.length).toBeGreaterThan(10);
    expect(described.filter((name) => !found.has(name))).toEqual([]);
    expect(Object.keys(PUBLIC).filter((name) => !found.has(name))).toEqual([]);
  });

  it.each(ordered.map((op) => [nameOf(op), op] as const))('%s', async (_, op) => {
    const problems: string[] = [];
    for (const c of casesOf(op)) {
      const problem = problemsOf(op, c, await call(op, c));
      if (problem) problems.push(`${c.name}: ${problem}`);
    }
    expect(problems, `${nameOf(op)}:\n${problems.join('\n')}`).toEqual([]);
  });
});
