import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as requestsRoute from '@/app/api/requests/route';
import * as knownNamesRoute from '@/app/api/agents/me/workspaces/[workspaceId]/names/route';
import * as topicsRoute from '@/app/api/topics/route';
import { startLocalExecutor } from '@/inngest/executor';
import { processTopicRequest } from '@/inngest/functions/process-topic-request';
import { startFakeModelServer, useFakeModelEnv, type FakeModelServer, type RecordedRequest } from '@/lib/agent/testing';
import { createAgent, createAgentKey, exchangeAgentCredential } from '@/lib/agents';
import { AgentBridge, createTurnRunner, HostedSupervisor } from '@/lib/bridge';
import { createConversation, listMessages, sendMessage } from '@/lib/chat';
import { asService, type SessionUser } from '@/lib/db';
import { analyzePlanet } from '@/lib/insights';
import { handleMcpRequest, mcpAddress } from '@/lib/mcp';
import { createRoutine, runRoutineNow } from '@/lib/schedule';
import { createApiKey } from '@/lib/topics';
import { callRoute } from '@/lib/topics/testing';
import { createWorkspace, type Workspace } from '@/lib/workspaces';
import { inProcessFetch, IN_PROCESS_URL } from '@/server/agent-api';
import { setupTestDatabase } from '@/test/db';
import { createUser, joinWorkspace } from '@/test/fixtures';
import { waitFor } from '@/test/wait';
import { workspaceNames } from '.';

/**
 * No name of a workspace's people reaches a model, on any surface that runs an agent: every production
 * caller of runAgent runs under the workspace's names (lib/policy; bridges through the agent API). Each
 * surface gets the same words about a customer (full name with email and phone, then the surname alone and
 * the first name with the surname's initial) and names a member of staff, a lead and a member; the anthropic
 * backend talks to the fake model server, and every request it recorded is checked.
 */

process.env.LOG_LEVEL = 'silent';
setupTestDatabase();

const MENTION =
  'Please call Mario Rossi (mario.rossi@example.it, +39 333 123 4567) about the colour: Rossi asked twice, Mario R. prefers mornings. Chiara Bellini, Paolo Conti and Luca Verdi know.';
/** The words of MENTION as a model may see them: the customer's three mentions one alias, the others theirs. */
const ALIASED =
  /call (Cliente-[0-9A-F]{4}) \(email-[0-9A-F]{4}, tel-[0-9A-F]{4}\) about the colour: \1 asked twice, \1 prefers mornings\. (Cliente-[0-9A-F]{4}), (Cliente-[0-9A-F]{4}) and (Cliente-[0-9A-F]{4}) know\./;
/** Nothing of these may reach a model: the customer (full, surname, initial, email, phone), the staff member, the lead, the member. */
const REAL = ['Mario Rossi', 'Rossi', 'Mario R.', 'mario.rossi', '333 123 4567', 'Chiara Bellini', 'Paolo Conti', 'Luca Verdi'];

/** Every request holds none of the real names, and one of them holds MENTION with its aliases, one per person. */
function expectAliased(requests: RecordedRequest[]) {
  expect(requests.length).toBeGreaterThan(0);
  for (const request of requests) for (const real of REAL) expect(request.text, `a model request held "${real}"`).not.toContain(real);
  const aliased = requests.map((r) => ALIASED.exec(r.text)).find(Boolean);
  expect(aliased, 'a model request with the mention, aliased').toBeTruthy();
  expect(new Set(aliased!.slice(1)).size).toBe(4);
}

let fake: FakeModelServer;
let restoreEnv: () => void;
let supervisor: HostedSupervisor;
let owner: SessionUser;
let team: Workspace;
let nova: { id: string };

/** The salon: its owner (who speaks), a member, a customer, a lead and a member of staff; two hosted agents on the anthropic backend. */
beforeAll(async () => {
  fake = await startFakeModelServer();
  restoreEnv = useFakeModelEnv({ ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: fake.url, MODEL_BACKEND: 'anthropic', AGENT_MAX_RETRIES: '0' });
  owner = await createUser('owner');
  const member = await createUser('member');
  team = await createWorkspace(owner, { name: 'Studio Luce', timeZone: 'Europe/Rome', locale: 'it', sector: 'hair_salon' });
  await joinWorkspace(owner, team.id, member);
  await asService(async (tx) => {
    await tx.query(`update public.profiles set display_name = case user_id when $1 then 'Giulia Neri' else 'Luca Verdi' end where user_id in ($1, $2)`, [owner.id, member.id]);
    await tx.query(
      `insert into public.customers (workspace_id, name, email, phone, consent_messages) values
         ($1, 'Mario Rossi', 'mario.rossi@example.it', '+39 333 123 4567', true), ($1, 'Anna Bianchi', null, '+39 333 765 4321', true)`,
      [team.id],
    );
    await tx.query(`insert into public.leads (workspace_id, name, email, source) values ($1, 'Paolo Conti', 'paolo@example.net', 'instagram')`, [team.id]);
    await tx.query(`insert into public.staff (workspace_id, name) values ($1, 'Chiara Bellini')`, [team.id]);
  });
  nova = await createAgent(owner, { name: 'Nova', role: 'Receptionist', runtime: 'hosted', backend: 'anthropic' });
  await createAgent(owner, { name: 'Atlas', role: 'Chief of staff', runtime: 'hosted', backend: 'anthropic' });
  supervisor = new HostedSupervisor({ host: 'test-host', fetch: inProcessFetch, url: IN_PROCESS_URL, bridge: { backoff: { initialMs: 50, maxMs: 200 } } });
  await supervisor.start();
});
afterAll(async () => {
  await supervisor.stop();
  restoreEnv();
  await fake.close();
});
afterEach(() => fake.reset());

const dmWith = async (agentId: string) => (await createConversation(owner, { kind: 'dm', workspaceId: team.id, agentIds: [agentId] })).conversation;

/** The agent's reply to `messageId` in the conversation, once it is there. */
const replyTo = (conversationId: string, messageId: string) =>
  waitFor(async () => {
    const { messages } = await listMessages(owner, conversationId);
    const at = messages.findIndex((m) => m.id === messageId);
    return at >= 0 && messages.slice(at + 1).find((m) => m.author.kind === 'agent');
  }, 'the agent to answer');

describe('the names a workspace hides', () => {
  it('are its customers, leads and staff, and its members as the chat shows them', async () => {
    expect((await workspaceNames(team.id)).sort()).toEqual(['Anna Bianchi', 'Chiara Bellini', 'Giulia Neri', 'Luca Verdi', 'Mario Rossi', 'Paolo Conti']);
  });

  it('reach an agent through the agent API only for a workspace it appears in', async () => {
    const stranger = await createUser('stranger');
    const elsewhere = await createAgent(stranger, { name: 'Elsewhere', runtime: 'local', backend: 'offline' });
    const ask = async (agentId: string, workspaceId: string) => {
      const { key } = await createAgentKey(agentId === nova.id ? owner : stranger, agentId, 'test');
      const { token } = await exchangeAgentCredential(key);
      return callRoute(knownNamesRoute.GET, 'GET', `/api/agents/me/workspaces/${workspaceId}/names`, {
        headers: { authorization: `Bearer ${token}` },
        params: { workspaceId },
      });
    };
    const seen = await ask(nova.id, team.id);
    expect(seen.status).toBe(200);
    expect(seen.body.data.names).toContain('Mario Rossi');
    const refused = await ask(elsewhere.id, team.id);
    expect([refused.status, refused.body.error.code]).toEqual([404, 'not_found']);
    const unauthenticated = await callRoute(knownNamesRoute.GET, 'GET', `/api/agents/me/workspaces/${team.id}/names`, { params: { workspaceId: team.id } });
    expect(unauthenticated.status).toBe(401);
  });
});

describe('no name reaches a model', () => {
  it('from a topic request: the answer and the exchange summary', async () => {
    // The model answers with the alias it was shown; the caller reads the real name.
    fake.respond = (request) => ({ text: `Noted: I will call ${/Cliente-[0-9A-F]{4}/.exec(request.text)?.[0] ?? 'nobody'}.` });
    const { secret: key } = await createApiKey(owner, team.id, { name: 'booking site' });
    const topic = await callRoute(topicsRoute.POST, 'POST', '/api/topics', { key, body: { name: 'calls', system_prompt: 'You plan the salon’s calls.' } });
    const submitted = await callRoute(requestsRoute.POST, 'POST', '/api/requests', { key, body: { prompt: MENTION, topic_id: topic.body.data.id, summarize: true } });
    expect(submitted.status).toBe(202);
    const executor = await startLocalExecutor({ functions: [processTopicRequest] });
    await executor.runUntilIdle();
    await executor.stop();

    const [request] = await asService((tx) => tx.query<{ status: string; result: string }>(`select status, result from public.topic_requests where id = $1`, [submitted.body.data.id]));
    expect(request).toEqual({ status: 'completed', result: 'Noted: I will call Mario Rossi.' });
    // The answer, then the summary of the exchange (whose answer holds the real name again).
    expect(fake.requests.map((r) => r.body.system.at(-1).text)).toEqual(['You plan the salon’s calls.', expect.stringContaining('running notes')]);
    expectAliased(fake.requests);
  });

  it('from a chat message to a hosted agent, whose speaker is named as she is', async () => {
    const dm = await dmWith(nova.id);
    const sent = await sendMessage({ kind: 'person', user: owner }, dm.id, MENTION);
    await replyTo(dm.id, sent.id);
    expectAliased(fake.requests);
    expect(fake.requests[0]!.text).toContain('Giulia Neri (person) wrote:');
  });

  it('from a chat message to an agent on a laptop bridge (agent key, the agent API)', async () => {
    const iris = await createAgent(owner, { name: 'Iris', role: 'Bookkeeper', runtime: 'local', backend: 'anthropic' });
    const { key } = await createAgentKey(owner, iris.id, 'laptop');
    const connected = { yes: false };
    const bridge = new AgentBridge({
      url: IN_PROCESS_URL,
      fetch: inProcessFetch,
      credential: async () => key,
      runTurn: createTurnRunner(),
      onEvent: (e) => void (e.type === 'connected' && (connected.yes = true)),
    }).start();
    try {
      await waitFor(() => connected.yes, 'the laptop agent to connect');
      const dm = await dmWith(iris.id);
      const sent = await sendMessage({ kind: 'person', user: owner }, dm.id, MENTION);
      await replyTo(dm.id, sent.id);
    } finally {
      await bridge.stop({ graceMs: 1000 });
    }
    expectAliased(fake.requests);
  });

  it('from an MCP ask_<agent> task', async () => {
    const { secret } = await createApiKey(owner, team.id, { name: 'assistant' });
    const transport = new StreamableHTTPClientTransport(new URL(mcpAddress()), {
      requestInit: { headers: { authorization: `Bearer ${secret}` } },
      fetch: (url, init) => handleMcpRequest(new Request(url, init)),
    });
    const client = new Client({ name: 'assistant', version: '1.0.0' });
    await client.connect(transport);
    try {
      const result = (await client.callTool({ name: 'ask_nova', arguments: { task: MENTION } })) as CallToolResult;
      expect(result.structuredContent).toMatchObject({ status: 'answered' });
    } finally {
      await client.close();
    }
    expectAliased(fake.requests);
  });

  it('from a routine run', async () => {
    const routine = await createRoutine(owner, team.id, { agentId: nova.id, name: 'Calls', instruction: MENTION, schedule: { kind: 'interval', minutes: 60 } });
    const run = await runRoutineNow(owner, team.id, routine.id);
    await replyTo(run.conversationId!, run.messageId!);
    expectAliased(fake.requests);
  });

  it('from a delegation: the task the delegate reads holds the real names, its model the aliases', async () => {
    const reply = (input: Record<string, unknown>) => ({ toolCalls: [{ name: 'reply', input }] });
    fake.respond = (request) => {
      const [system, context] = request.body.system.map((b: { text: string }) => b.text);
      if (system.startsWith('You are Atlas')) return reply({ message: '@Nova Done.', done: true });
      // Nova hands the task over in its model's words (the aliases), which the runtime turns back into names,
      // and brings Atlas's answer back to the DM.
      if (context.includes('(direct message')) return reply({ message: 'Asking Atlas.', delegate: { to: ['Atlas'], task: ALIASED.exec(request.text)![0] } });
      return reply({ message: 'Done.', relay: true });
    };
    const dm = await dmWith(nova.id);
    await sendMessage({ kind: 'person', user: owner }, dm.id, MENTION);
    const relayed = await waitFor(async () => (await listMessages(owner, dm.id)).messages.find((m) => m.body === 'Done.'), 'the result relayed to the DM', 30_000);
    expect(relayed.author.name).toBe('Nova');

    const [task] = await asService((tx) =>
      tx.query<{ body: string }>(`select m.body from public.messages m join public.conversations c on c.id = m.conversation_id where c.parent_conversation_id = $1 and c.kind = 'delegation'`, [dm.id]),
    );
    expect(task!.body).toContain('call Mario Rossi (mario.rossi@example.it, +39 333 123 4567)');
    const delegate = fake.requests.filter((r) => r.body.system[0].text.startsWith('You are Atlas'));
    // The delegate's run answers Nova, not the person: her name is hidden there too.
    expect(delegate[0]!.text).not.toContain('Giulia Neri');
    expect(delegate.length).toBeGreaterThan(0);
    expectAliased(delegate);
    expectAliased(fake.requests);
  });

  it('from the daily analysis: what its tools read (a freed slot of a service named after a customer)', async () => {
    // A bridal trial booked under the customer's name and cancelled: the slot is free, Anna waits for one.
    const service = 'Prova sposa Mario Rossi, mario.rossi@example.it, 333 123 4567 (Rossi, Mario R.) con Chiara Bellini';
    await asService(async (tx) => {
      const [ids] = await tx.query<{ service: string; staff: string; mario: string; anna: string }>(
        `with s as (insert into public.services (workspace_id, name, duration_minutes, price_cents) values ($1, $2, 60, 9000) returning id)
         select s.id as service, (select id from public.staff where workspace_id = $1) as staff,
                (select id from public.customers where workspace_id = $1 and name = 'Mario Rossi') as mario,
                (select id from public.customers where workspace_id = $1 and name = 'Anna Bianchi') as anna
           from s`,
        [team.id, service],
      );
      await tx.query(
        `insert into public.appointments (workspace_id, customer_id, service_id, staff_id, starts_at, ends_at, status, price_cents, cancelled_at) values
           ($1, $2, $3, $4, now() - interval '1 day', now() - interval '23 hours', 'completed', 9000, null),
           ($1, $2, $3, $4, now() + interval '3 hours', now() + interval '4 hours', 'cancelled', 9000, now())`,
        [team.id, ids!.mario, ids!.service, ids!.staff],
      );
      await tx.query(
        `insert into public.waitlist_entries (workspace_id, customer_id, service_id, window_start, window_end) values ($1, $2, $3, now() + interval '1 hour', now() + interval '10 hours')`,
        [team.id, ids!.anna, ids!.service],
      );
    });
    fake.script({ toolCalls: [{ name: 'action_candidates', input: { planet: 'booking' } }] }, { toolCalls: [{ name: 'finish_analysis', input: { insights: [] } }] });
    const outcome = await analyzePlanet({ workspaceId: team.id, planet: 'booking', localDate: new Date().toISOString().slice(0, 10) });
    expect(outcome).toMatchObject({ status: 'done', source: 'agent' });

    const read = fake.requests[1]!.text;
    const aliased = /Prova sposa (Cliente-[0-9A-F]{4}), email-[0-9A-F]{4}, tel-[0-9A-F]{4} \(\1, \1\) con Cliente-[0-9A-F]{4}/;
    expect(read).toMatch(aliased);
    for (const request of fake.requests) for (const real of REAL) expect(request.text).not.toContain(real);
  });
});
