import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, createAgentKey } from '@/lib/agents';
import { AgentBridge, createTurnRunner, type TurnRunner } from '@/lib/bridge';
import { createConversation, listMessages } from '@/lib/chat';
import { resetConfigForTests } from '@/lib/config';
import { createApiKey, revokeApiKey } from '@/lib/topics';
import { createWorkspace } from '@/lib/workspaces';
import { inProcessFetch, IN_PROCESS_URL } from '@/server/agent-api';
import { setupTestDatabase } from '@/test/db';
import { createUser } from '@/test/fixtures';
import { waitFor } from '@/test/wait';
import { mcpAddress } from './address';
import { handleMcpRequest } from './http';
import { toolNames } from './server';

setupTestDatabase();

// The address the app shows (APP_URL's): the endpoint refuses requests addressed to any other host.
const URL_ = mcpAddress();
const bridges: AgentBridge[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(bridges.splice(0).map((b) => b.stop({ graceMs: 1000 })));
});

/** A salon with one agent and an API key for its software; nobody runs the agent until `startAgent`. */
async function salon() {
  const owner = await createUser('owner');
  const team = await createWorkspace(owner, { name: 'Studio Aurora' });
  const nova = await createAgent(owner, { name: 'Nova', role: 'Bookkeeper', capabilities: ['invoices'], runtime: 'local', backend: 'offline' });
  const { secret, key } = await createApiKey(owner, team.id, { name: 'Booking site' });
  const startAgent = async (runTurn: TurnRunner) => {
    const { key: agentKey } = await createAgentKey(owner, nova.id, 'laptop');
    const connected = { yes: false };
    const bridge = new AgentBridge({
      url: IN_PROCESS_URL,
      fetch: inProcessFetch,
      credential: async () => agentKey,
      runTurn,
      onEvent: (e) => {
        if (e.type === 'connected') connected.yes = true;
      },
    }).start();
    bridges.push(bridge);
    await waitFor(() => connected.yes, 'the agent to connect');
  };
  const dm = async () => (await createConversation(owner, { kind: 'dm', workspaceId: team.id, agentIds: [nova.id] })).conversation;
  return { owner, team, nova, secret, keyId: key.id, startAgent, dm };
}

/** An MCP client talking to the route handler in this process, recording the content type of each answer. */
async function connect(secret: string) {
  const contentTypes: string[] = [];
  const transport = new StreamableHTTPClientTransport(new URL(URL_), {
    requestInit: { headers: { authorization: `Bearer ${secret}` } },
    fetch: async (url, init) => {
      const response = await handleMcpRequest(new Request(url, init));
      // The answers to requests (notifications get an empty 202, the optional GET stream a 405).
      if (response.status === 200) contentTypes.push(response.headers.get('content-type') ?? '');
      return response;
    },
  });
  const client = new Client({ name: 'booking-site', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return { client, contentTypes };
}

const echo: TurnRunner = async ({ delivery }) => ({ kind: 'reply', body: `Done: ${delivery.message.body}` });
const post = (headers: Record<string, string>, body: unknown = { jsonrpc: '2.0', id: 1, method: 'tools/list' }) =>
  handleMcpRequest(new Request(URL_, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(body) }));

describe('the MCP endpoint', () => {
  it('refuses a request without a live workspace key, and GET, as a stateless server does', async () => {
    const { owner, team, secret, keyId } = await salon();
    const missing = await post({});
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer');
    expect((await missing.json()).error.message).toMatch(/API key/);
    expect((await post({ authorization: 'Bearer mvk_not-a-real-key-at-all' })).status).toBe(401);
    expect((await post({ authorization: `Bearer ${secret}` })).status).toBe(200);
    await revokeApiKey(owner, team.id, keyId);
    expect((await post({ authorization: `Bearer ${secret}` })).status).toBe(401);
    expect((await handleMcpRequest(new Request(URL_, { method: 'GET', headers: { authorization: `Bearer ${secret}` } }))).status).toBe(405);
  });

  it("lists one tool per agent of the key's workspace, and get_task", async () => {
    const { secret } = await salon();
    const { client } = await connect(secret);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['ask_nova', 'get_task']);
    const ask = tools.find((t) => t.name === 'ask_nova')!;
    expect(ask.description).toContain('Nova (Bookkeeper)');
    expect(ask.inputSchema.required).toEqual(['task']);
  });

  it('gives the agent a real task in the DM and returns the answer the agent wrote there', async () => {
    const { owner, secret, keyId, startAgent, dm } = await salon();
    // The agent's real turn on the offline model, as a hosted agent of a fresh install would answer.
    await startAgent(createTurnRunner());
    const { client, contentTypes } = await connect(secret);
    const result = (await client.callTool({ name: 'ask_nova', arguments: { task: 'How many invoices are still open?' } })) as CallToolResult;

    const { messages } = await listMessages(owner, (await dm()).id);
    expect(messages.map((m) => m.author.kind)).toEqual(['person', 'agent']);
    expect(messages[0]).toMatchObject({ body: 'How many invoices are still open?', author: { id: owner.id }, payload: { via: { kind: 'mcp', keyId, keyName: 'Booking site' } } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ status: 'answered', agent: 'Nova', answer: messages[1]!.body, task_id: messages[0]!.id });
    expect(messages[1]!.body).not.toBe('');
    expect((result.content as Array<{ text: string }>)[0]!.text).toBe(messages[1]!.body);
    // No progress was asked for: plain JSON responses.
    expect(contentTypes).toHaveLength(2); // initialize, the call
    expect(contentTypes.every((t) => t.startsWith('application/json'))).toBe(true);
  });

  it('streams progress over SSE when the call asks for it: picked up, then answered', async () => {
    const { secret, startAgent } = await salon();
    await startAgent(echo);
    const { client, contentTypes } = await connect(secret);
    const progress: Array<{ progress: number; message?: string }> = [];
    const result = (await client.callTool({ name: 'ask_nova', arguments: { task: 'Send the reminder list' } }, undefined, {
      onprogress: (p) => progress.push({ progress: p.progress, message: p.message }),
    })) as CallToolResult;
    expect(result.structuredContent).toMatchObject({ status: 'answered', answer: 'Done: Send the reminder list' });
    expect(contentTypes.at(-1)).toMatch(/^text\/event-stream/);
    expect(progress.at(-1)).toEqual({ progress: 2, message: 'Nova answered.' });
    expect(progress.map((p) => p.progress)).toEqual([...progress.map((p) => p.progress)].sort());
  });

  it('returns at once while the agent is offline, and get_task reads each answer once it has connected', async () => {
    const { secret, startAgent } = await salon();
    const { client } = await connect(secret);
    // Nova is not connected: the call says so at once instead of waiting its 50 seconds (which would
    // outlast the test's 30-second timeout).
    const early = (await client.callTool({ name: 'ask_nova', arguments: { task: 'Close the month' } })) as CallToolResult;
    expect(early.structuredContent).toMatchObject({ status: 'queued', answer: '' });
    const taskId = (early.structuredContent as { task_id: string }).task_id;
    expect((early.content as Array<{ text: string }>)[0]!.text).toBe(
      `Nova is offline (not connected to Multiverbe), so the task waits for it: it answers when it connects. Call get_task with task_id ${taskId} to read the answer then.`,
    );

    const second = (await client.callTool({ name: 'ask_nova', arguments: { task: 'Then send the invoices', wait_seconds: 0 } })) as CallToolResult;
    const secondId = (second.structuredContent as { task_id: string }).task_id;

    // The agent was offline; it answers what waited for it once it connects, and each task gets its own answer.
    await startAgent(echo);
    const later = (await client.callTool({ name: 'get_task', arguments: { task_id: taskId, wait_seconds: 10 } })) as CallToolResult;
    expect(later.structuredContent).toMatchObject({ task_id: taskId, status: 'answered', answer: 'Done: Close the month' });
    const next = (await client.callTool({ name: 'get_task', arguments: { task_id: secondId, wait_seconds: 10 } })) as CallToolResult;
    expect(next.structuredContent).toMatchObject({ status: 'answered', answer: 'Done: Then send the invoices' });
  });

  it('refuses an empty task without writing anything, and only the key that gave a task reads it', async () => {
    const { owner, team, secret, dm } = await salon();
    const { client } = await connect(secret);
    const empty = (await client.callTool({ name: 'ask_nova', arguments: { task: '   ' } })) as CallToolResult;
    expect(empty.isError).toBe(true);
    expect((empty.content as Array<{ text: string }>)[0]!.text).toContain('Write the task first');
    expect((await listMessages(owner, (await dm()).id)).messages).toEqual([]);

    const other = await salon();
    const theirs = (await (await connect(other.secret)).client.callTool({ name: 'ask_nova', arguments: { task: 'Private', wait_seconds: 0 } })) as CallToolResult;
    const missing = (await client.callTool({ name: 'get_task', arguments: { task_id: (theirs.structuredContent as { task_id: string }).task_id } })) as CallToolResult;
    expect(missing.isError).toBe(true);
    expect((missing.content as Array<{ text: string }>)[0]!.text).toBe('This task was not found.');

    // Another key of the same workspace does not read this key's tasks either.
    const mine = (await client.callTool({ name: 'ask_nova', arguments: { task: 'Mine', wait_seconds: 0 } })) as CallToolResult;
    const sibling = await connect((await createApiKey(owner, team.id, { name: 'Newsletter tool' })).secret);
    const read = (await sibling.client.callTool({ name: 'get_task', arguments: { task_id: (mine.structuredContent as { task_id: string }).task_id } })) as CallToolResult;
    expect((read.content as Array<{ text: string }>)[0]!.text).toBe('This task was not found.');
    expect((await client.callTool({ name: 'get_task', arguments: { task_id: (mine.structuredContent as { task_id: string }).task_id } })).isError).toBeFalsy();
  });

  it("counts tasks against the key's submit limit and writes nothing for a refused one", async () => {
    // The hour runs out rather than the minute: a window's edge inside the test is 60 times less likely.
    const before = { RATE_LIMIT_PER_MINUTE: process.env.RATE_LIMIT_PER_MINUTE, RATE_LIMIT_PER_HOUR: process.env.RATE_LIMIT_PER_HOUR };
    Object.assign(process.env, { RATE_LIMIT_PER_MINUTE: '100', RATE_LIMIT_PER_HOUR: '2' });
    resetConfigForTests();
    try {
      const { owner, secret, dm } = await salon();
      const { client } = await connect(secret);
      for (const task of ['one', 'two']) {
        expect((await client.callTool({ name: 'ask_nova', arguments: { task, wait_seconds: 0 } })).isError).toBeFalsy();
      }
      const refused = (await client.callTool({ name: 'ask_nova', arguments: { task: 'three', wait_seconds: 0 } })) as CallToolResult;
      expect(refused.isError).toBe(true);
      expect((refused.content as Array<{ text: string }>)[0]!.text).toMatch(/^Too many requests: try again in \d+ seconds\.$/);
      expect((await listMessages(owner, (await dm()).id)).messages.map((m) => m.body)).toEqual(['one', 'two']);
    } finally {
      for (const [name, value] of Object.entries(before)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      resetConfigForTests();
    }
  });
});

describe('toolNames', () => {
  it('makes ASCII tool names and tells apart agents whose names read the same', () => {
    const named = toolNames([
      { id: 'aaaaaaaa-1111', name: 'Nova' },
      { id: 'bbbbbbbb-2222', name: 'Zoë Café' },
      { id: 'cccccccc-3333', name: 'nova' },
    ]);
    expect(named.map(([n]) => n)).toEqual(['ask_nova_aaaaaaaa', 'ask_zoe_cafe', 'ask_nova_cccccccc']);
  });
});
