import { chmod, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { setupTestDatabase } from '@/test/db';
import { chooseBackend, defineTool, describeBackends, runAgent, type AgentRunOptions } from '@/lib/agent';
import { createTestWorkspace, startFakeModelServer, testPolicy, useFakeModelEnv, type FakeModelServer } from '@/lib/agent/testing';

process.env.LOG_LEVEL = 'silent';
const db = setupTestDatabase();

let fake: FakeModelServer;
let workspaceId: string;
let restoreEnv: (() => void) | undefined;
beforeAll(async () => {
  fake = await startFakeModelServer();
  ({ workspaceId } = await createTestWorkspace(db()));
});
afterAll(async () => {
  await fake.close();
});
afterEach(() => {
  restoreEnv?.();
  restoreEnv = undefined;
  fake.reset();
});

const bookings = defineTool({
  name: 'todays_bookings',
  description: 'Bookings today.',
  input: z.object({}),
  kind: 'read',
  handler: async () => ({ count: 6, first: 'Mario Rossi at 9:30' }),
});
const leads = defineTool({
  name: 'new_leads',
  description: 'New leads this week.',
  input: z.object({ days: z.number().int().default(7) }),
  kind: 'read',
  handler: async ({ days }) => ({ days, count: 4 }),
});

const options = (over: Partial<AgentRunOptions> = {}): AgentRunOptions => ({
  system: 'You write the daily pulse.',
  firstMessage: 'Pulse for today.',
  tools: [bookings, leads],
  workspaceId,
  policy: testPolicy(),
  trigger: 'test',
  ...over,
});

describe('backend selection', () => {
  it('picks anthropic with an API key, else offline, and says why', () => {
    restoreEnv = useFakeModelEnv({ ANTHROPIC_API_KEY: 'sk-x', CLAUDE_CONFIG_DIR: '/nonexistent' });
    expect(chooseBackend()).toMatchObject({ id: 'anthropic', available: true, source: 'automatic', reason: 'automatic: ANTHROPIC_API_KEY is set' });
    restoreEnv();
    restoreEnv = useFakeModelEnv({ CLAUDE_CONFIG_DIR: '/nonexistent' });
    expect(chooseBackend()).toMatchObject({ id: 'offline', available: true, source: 'automatic' });
    expect(chooseBackend().reason).toMatch(/no API key and no Claude login/);
  });

  it('an explicit choice wins, and is reported unavailable when it cannot run', () => {
    restoreEnv = useFakeModelEnv({ ANTHROPIC_API_KEY: 'sk-x', MODEL_BACKEND: 'codex', CODEX_BIN: 'codex-not-installed-here' });
    expect(chooseBackend()).toMatchObject({ id: 'codex', available: false, source: 'environment', reason: 'MODEL_BACKEND; codex-not-installed-here is not on PATH' });
    expect(chooseBackend('offline')).toMatchObject({ id: 'offline', available: true, source: 'setting', reason: expect.stringMatching(/^chosen for this agent or workspace/) });
  });

  it('describeBackends reports the active backend and what each one needs', () => {
    restoreEnv = useFakeModelEnv({ OPENAI_API_KEY: 'sk-o', CLAUDE_CONFIG_DIR: '/nonexistent' });
    const report = describeBackends();
    expect(report).toMatchObject({ active: 'offline', activeLabel: 'offline model', available: true, source: 'automatic' });
    expect(report.backends.map((b) => [b.id, b.available])).toEqual([
      ['anthropic', false],
      ['claude-code', false],
      ['openai', true],
      ['codex', false],
      ['offline', true],
    ]);
  });
});

describe('offline backend', () => {
  it('calls the essential read tools, then finishes with a summary of their results, labelled offline', async () => {
    restoreEnv = useFakeModelEnv({ CLAUDE_CONFIG_DIR: '/nonexistent' });
    const result = await runAgent(
      options({ policy: testPolicy({ names: ['Mario Rossi'] }), essentialReadTools: ['todays_bookings', { name: 'new_leads', input: { days: 3 } }] }),
    );
    expect(result).toMatchObject({ ran: true, backend: 'offline', model: 'offline', stopReason: 'finished', iterations: 2 });
    expect(result.toolCalls.map((c) => c.name).sort()).toEqual(['finish', 'new_leads', 'todays_bookings']);
    const summary = (result.output as { summary: string }).summary;
    expect(summary).toMatch(/^Summary by the offline model/);
    expect(summary).toContain('"days":3');
    expect(summary).toContain('Mario Rossi at 9:30'); // re-identified for the caller
    expect(result.usage).toEqual({ input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 });
    expect(fake.requests).toHaveLength(0);
    const [row] = await db().query<{ backend: string; model: string }>(`select backend, model from public.agent_runs where id = $1`, [result.runId]);
    expect(row).toEqual({ backend: 'offline', model: 'offline' });
  });

  it('ends with the summary as text, not a refused call, when the finish tool takes no summary (chat’s reply)', async () => {
    restoreEnv = useFakeModelEnv({ CLAUDE_CONFIG_DIR: '/nonexistent' });
    const reply = defineTool({
      name: 'reply_for_offline_test',
      description: 'Your answer.',
      input: z.object({ message: z.string() }),
      kind: 'read',
      handler: async () => 'ok',
    });
    const result = await runAgent(options({ tools: [bookings, reply], finishToolName: reply.name, essentialReadTools: ['todays_bookings'] }));
    expect(result).toMatchObject({ ran: true, backend: 'offline', stopReason: 'no_tool_use' });
    expect(result.toolCalls).toEqual([expect.objectContaining({ name: 'todays_bookings', ok: true })]);
    expect(result.finalText).toMatch(/^Summary by the offline model/);
  });
});

describe('openai backend', () => {
  it('maps tool calls and results through the official SDK, with cached tokens kept apart', async () => {
    restoreEnv = useFakeModelEnv({ OPENAI_API_KEY: 'sk-o', OPENAI_BASE_URL: fake.openaiUrl, AGENT_MAX_RETRIES: '2' });
    fake.script(
      { error: { status: 429, retryAfterSeconds: 0.01 } },
      { toolCalls: [{ name: 'todays_bookings', input: {} }, { name: 'new_leads', input: { days: 'x' } }] },
      { toolCalls: [{ name: 'finish', input: { summary: 'done' } }] },
    );
    const result = await runAgent(options({ backend: 'openai', model: 'gpt-test' }));
    expect(result).toMatchObject({ ran: true, backend: 'openai', model: 'gpt-test', stopReason: 'finished', output: { summary: 'done' } });
    const requests = fake.requests.filter((r) => r.api === 'openai');
    expect(requests).toHaveLength(3); // the 429 was retried
    const second = requests[2]!.body;
    expect(second.tools.map((t: any) => t.function.name)).toEqual(['finish', 'new_leads', 'todays_bookings']);
    const toolMessages = second.messages.filter((m: any) => m.role === 'tool');
    expect(toolMessages).toHaveLength(2);
    expect(toolMessages[1].content).toMatch(/^\[error\] Invalid input for new_leads/);
    expect(result.usage.cache_read_input_tokens).toBeGreaterThan(0);
  });
});

describe('codex backend', () => {
  // A stand-in for the Codex CLI that speaks `codex exec --json` as documented (thread.started,
  // item.completed, turn.completed). The real CLI is not installed on these machines.
  async function installStandIn(replies: unknown[]) {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'mv-codex-bin-'));
    const log = path.join(dir, 'calls.jsonl');
    const bin = path.join(dir, 'codex');
    await writeFile(
      bin,
      `#!/usr/bin/env node
const fs = require('node:fs');
const args = process.argv.slice(2);
const n = fs.existsSync(${JSON.stringify(log)}) ? fs.readFileSync(${JSON.stringify(log)}, 'utf8').split('\\n').filter(Boolean).length : 0;
const schema = args.includes('--output-schema') ? JSON.parse(fs.readFileSync(args[args.indexOf('--output-schema') + 1], 'utf8')) : null;
fs.appendFileSync(${JSON.stringify(log)}, JSON.stringify({ args, schema }) + '\\n');
const replies = ${JSON.stringify(replies)};
const out = (e) => process.stdout.write(JSON.stringify(e) + '\\n');
if (!args.includes('resume')) out({ type: 'thread.started', thread_id: 'thread-1' });
out({ type: 'turn.started' });
out({ type: 'item.completed', item: { id: 'item_' + n, type: 'agent_message', text: JSON.stringify(replies[n]) } });
out({ type: 'turn.completed', usage: { input_tokens: 100, cached_input_tokens: 40, output_tokens: 10 } });
`,
    );
    await chmod(bin, 0o755);
    return { bin, calls: async () => (await readFile(log, 'utf8')).split('\n').filter(Boolean).map((l) => JSON.parse(l)) };
  }

  it('runs each turn as codex exec on one thread, tool calls forced into JSON', async () => {
    const standIn = await installStandIn([
      { message: 'Reading.', tool_calls: [{ name: 'todays_bookings', arguments: '{}' }] },
      { message: 'Done.', tool_calls: [{ name: 'finish', arguments: '{"summary":"6 bookings"}' }] },
    ]);
    restoreEnv = useFakeModelEnv({ CODEX_BIN: standIn.bin });
    const result = await runAgent(options({ backend: 'codex' }));
    expect(result).toMatchObject({ ran: true, backend: 'codex', stopReason: 'finished', iterations: 2, sessionId: 'thread-1', output: { summary: '6 bookings' } });
    expect(result.usage).toEqual({ input_tokens: 120, output_tokens: 20, cache_read_input_tokens: 80, cache_creation_input_tokens: 0 });
    const calls = await standIn.calls();
    expect(calls[0].args.slice(0, 6)).toEqual(['exec', '--json', '--skip-git-repo-check', '--sandbox', 'read-only', '--output-schema']);
    expect(calls[0].args.at(-1)).toContain('Tools:\n- finish (read)');
    expect(calls[0].schema.properties.tool_calls.items.properties.name.enum).toEqual(['finish', 'new_leads', 'todays_bookings']);
    expect(calls[1].args).toEqual(expect.arrayContaining(['resume', 'thread-1']));
    expect(calls[1].args.at(-1)).toMatch(/^Tool results:\n\[codex_1_1\] todays_bookings ok: /);
  });
});
