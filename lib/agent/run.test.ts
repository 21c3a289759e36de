import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { setupTestDatabase } from '@/test/db';
import { defineTool, runAgent, type AgentRunOptions, type AgentTool } from '@/lib/agent';
import { createTestWorkspace, startFakeModelServer, testPolicy, useFakeModelEnv, type FakeModelServer } from '@/lib/agent/testing';

process.env.LOG_LEVEL = 'silent';
const db = setupTestDatabase();

let fake: FakeModelServer;
let restoreEnv: () => void;
let workspaceId: string;

beforeAll(async () => {
  fake = await startFakeModelServer();
  restoreEnv = useFakeModelEnv({ ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: fake.url, AGENT_MAX_RETRIES: '2' });
  ({ workspaceId } = await createTestWorkspace(db(), 'pro'));
});
afterAll(async () => {
  restoreEnv();
  await fake.close();
});
afterEach(() => fake.reset());

const lookup = defineTool({
  name: 'lookup_bookings',
  description: 'Bookings of a day.',
  input: z.object({ day: z.string() }),
  kind: 'read',
  handler: async ({ day }) => ({ day, bookings: 4 }),
});

const base = (over: Partial<AgentRunOptions> = {}): AgentRunOptions => ({
  system: 'You are the booking planet agent.',
  firstMessage: 'How is today going?',
  tools: [lookup],
  workspaceId,
  policy: testPolicy(),
  agent: { id: 'booking-agent', name: 'Booking' },
  planet: 'booking',
  trigger: 'test',
  ...over,
});

async function runRow(runId: string | null) {
  const [row] = await db().query<Record<string, any>>(`select * from public.agent_runs where id = $1`, [runId]);
  return row!;
}

/** The tool_result blocks of the last request the fake server received. */
function lastToolResults() {
  const messages = fake.requests.at(-1)!.body.messages as any[];
  return messages.at(-1).content.filter((b: any) => b.type === 'tool_result');
}

describe('runAgent: stop reasons', () => {
  it('finished: the model calls finish; output and the run row are recorded', async () => {
    fake.script(
      { toolCalls: [{ name: 'lookup_bookings', input: { day: 'today' } }] },
      { text: 'All good.', toolCalls: [{ name: 'finish', input: { summary: '4 bookings today' } }] },
    );
    const result = await runAgent(base());
    expect(result).toMatchObject({ ran: true, stopReason: 'finished', iterations: 2, backend: 'anthropic', model: 'claude-sonnet-4-6' });
    expect(result.output).toEqual({ summary: '4 bookings today' });
    expect(result.finalText).toBe('All good.');
    expect(result.toolCalls.map((c) => [c.name, c.ok])).toEqual([
      ['lookup_bookings', true],
      ['finish', true],
    ]);
    const row = await runRow(result.runId);
    expect(row).toMatchObject({ stop_reason: 'finished', iterations: 2, backend: 'anthropic', planet: 'booking', agent_id: 'booking-agent', trigger: 'test', ran: true });
    expect(row.tool_calls).toHaveLength(2);
    expect(row.outcome).toEqual({ finalText: 'All good.', output: { summary: '4 bookings today' } });
  });

  it('no_tool_use: the model answers in text', async () => {
    fake.script({ text: 'Nothing to do.' });
    const result = await runAgent(base());
    expect(result).toMatchObject({ stopReason: 'no_tool_use', iterations: 1, finalText: 'Nothing to do.' });
  });

  it('max_iter: the loop stops after maxIterations turns', async () => {
    fake.respond = () => ({ toolCalls: [{ name: 'lookup_bookings', input: { day: `d${fake.requests.length}` } }] });
    const result = await runAgent(base({ maxIterations: 3 }));
    expect(result).toMatchObject({ stopReason: 'max_iter', iterations: 3 });
    expect(fake.requests).toHaveLength(3);
  });

  it('budget: the run stops once its token budget is spent', async () => {
    fake.respond = () => ({ toolCalls: [{ name: 'lookup_bookings', input: { day: `d${fake.requests.length}` } }], outputTokens: 500 });
    const result = await runAgent(base({ tokenBudget: 1200, maxIterations: 10 }));
    expect(result.stopReason).toBe('budget');
    expect(result.iterations).toBe(2);
  });

  it('deadline: a call still running at the deadline is abandoned', async () => {
    fake.respond = () => ({ hang: true });
    const result = await runAgent(base({ deadline: new Date(Date.now() + 100) }));
    expect(result).toMatchObject({ ran: true, stopReason: 'deadline' });
    expect((await runRow(result.runId)).stop_reason).toBe('deadline');
  });

  it('cancelled: the caller aborts mid-call', async () => {
    const controller = new AbortController();
    fake.respond = () => {
      controller.abort();
      return { hang: true };
    };
    const result = await runAgent(base({ signal: controller.signal }));
    expect(result.stopReason).toBe('cancelled');
    expect((await runRow(result.runId)).stop_reason).toBe('cancelled');
  });

  it('error: a failing backend gives a typed error and the run is still recorded', async () => {
    fake.script({ error: { status: 401, message: 'invalid x-api-key' } });
    const result = await runAgent(base());
    expect(result).toMatchObject({ ran: true, stopReason: 'error', error: { kind: 'auth' } });
    expect(result.error!.message).toMatch(/ANTHROPIC_API_KEY/);
    const row = await runRow(result.runId);
    expect(row).toMatchObject({ stop_reason: 'error', error_kind: 'auth' });
  });
});

describe('runAgent: retries', () => {
  it('retries a 429 after retry-after and a 529 overload, then goes on', async () => {
    fake.script(
      { error: { status: 429, retryAfterSeconds: 0.01 } },
      { error: { status: 529 } },
      { toolCalls: [{ name: 'finish', input: { summary: 'done' } }] },
    );
    const result = await runAgent(base());
    expect(result.stopReason).toBe('finished');
    expect(fake.requests.filter((r) => r.api === 'anthropic')).toHaveLength(3);
  });

  it('gives up after AGENT_MAX_RETRIES with a rate_limit error', async () => {
    fake.script(...Array.from({ length: 3 }, () => ({ error: { status: 429, retryAfterSeconds: 0.01 } })));
    const result = await runAgent(base());
    expect(result).toMatchObject({ stopReason: 'error', error: { kind: 'rate_limit' } });
    expect(fake.requests).toHaveLength(3);
  });
});

describe('runAgent: tools', () => {
  it('runs the read tools of one turn in parallel', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const slow = (name: string) =>
      defineTool({
        name,
        description: name,
        input: z.object({}),
        kind: 'read',
        handler: async () => {
          inFlight += 1;
          maxInFlight = Math.max(maxInFlight, inFlight);
          await new Promise((resolve) => setImmediate(resolve));
          inFlight -= 1;
          return name;
        },
      });
    const tools = [slow('read_a'), slow('read_b'), slow('read_c')];
    fake.script({ toolCalls: tools.map((t) => ({ name: t.name, input: {} })) }, { toolCalls: [{ name: 'finish', input: { summary: 'x' } }] });
    const result = await runAgent(base({ tools }));
    expect(result.stopReason).toBe('finished');
    expect(maxInFlight).toBe(3);
  });

  it('invalid input is an is_error result the model can read; the handler never runs', async () => {
    let calls = 0;
    const strict = defineTool({
      name: 'book_slot',
      description: 'Look up a slot.',
      input: z.object({ hour: z.number().int().min(8).max(20) }),
      kind: 'read',
      handler: async () => {
        calls += 1;
        return 'ok';
      },
    });
    fake.script({ toolCalls: [{ name: 'book_slot', input: { hour: 'nine' } }] }, { text: 'I give up.' });
    const result = await runAgent(base({ tools: [strict] }));
    expect(calls).toBe(0);
    const [toolResult] = lastToolResults();
    expect(toolResult.is_error).toBe(true);
    expect(toolResult.content).toMatch(/Invalid input for book_slot: hour:/);
    expect(result.toolCalls[0]).toMatchObject({ name: 'book_slot', ok: false });
  });

  it('a thrown handler becomes an is_error result', async () => {
    const broken = defineTool({
      name: 'broken',
      description: 'Always fails.',
      input: z.object({}),
      kind: 'read',
      handler: async () => {
        throw new Error('database is down');
      },
    });
    fake.script({ toolCalls: [{ name: 'broken', input: {} }] }, { text: 'ok' });
    await runAgent(base({ tools: [broken] }));
    const [toolResult] = lastToolResults();
    expect(toolResult).toMatchObject({ is_error: true, content: 'broken failed: database is down' });
  });

  it('an unknown tool is an error result, not a crash', async () => {
    fake.script({ toolCalls: [{ name: 'delete_everything', input: {} }] }, { text: 'ok' });
    const result = await runAgent(base());
    expect(result.stopReason).toBe('no_tool_use');
    expect(lastToolResults()[0]).toMatchObject({ is_error: true });
    expect(lastToolResults()[0].content).toMatch(/There is no tool named "delete_everything"/);
    expect(result.toolCalls[0]).toMatchObject({ name: 'delete_everything', ok: false, note: 'unknown_tool' });
  });

  it('stops a call that failed twice with the same arguments, tells the model, and records it', async () => {
    let calls = 0;
    const flaky = defineTool({
      name: 'send_report',
      description: 'Fails.',
      input: z.object({ to: z.string() }),
      kind: 'read',
      handler: async () => {
        calls += 1;
        throw new Error('mailbox full');
      },
    });
    const again = { toolCalls: [{ name: 'send_report', input: { to: 'boss' } }] };
    fake.script(again, again, again, { toolCalls: [{ name: 'send_report', input: { to: 'team' } }] }, { text: 'stopping' });
    const result = await runAgent(base({ tools: [flaky] }));
    expect(calls).toBe(3); // boss twice, then team once; the third boss call never ran
    const sent = fake.requests.map((r) => r.body.messages.at(-1).content.find((b: any) => b.type === 'tool_result')?.content);
    expect(sent[2]).toMatch(/failed 2 times with the same arguments and is stopped/);
    expect(sent[3]).toMatch(/^Stopped: send_report already failed 2 times/);
    expect(result.toolCalls.map((c) => c.note ?? null)).toEqual([null, 'repeated_failure', 'repeated_failure', null]);
    const row = await runRow(result.runId);
    expect(row.tool_calls.filter((c: any) => c.note === 'repeated_failure')).toHaveLength(2);
  });

  it('write tools are proposed by default and run only when authorizeWrite says execute', async () => {
    const sent: unknown[] = [];
    const remind = defineTool({
      name: 'send_reminder',
      description: 'Sends a reminder.',
      input: z.object({ bookingId: z.string() }),
      kind: 'write',
      planet: 'booking',
      handler: async (input) => {
        sent.push(input);
        return 'sent';
      },
    });
    const call = { toolCalls: [{ name: 'send_reminder', input: { bookingId: 'b1' } }] };
    fake.script(call, { text: 'ok' });
    const proposed = await runAgent(base({ tools: [remind] }));
    expect(sent).toEqual([]);
    expect(proposed.proposals).toMatchObject([{ tool: 'send_reminder', planet: 'booking', input: { bookingId: 'b1' } }]);
    expect(lastToolResults()[0].content).toMatch(/^Proposed: send_reminder was not run/);
    expect((await runRow(proposed.runId)).proposals).toHaveLength(1);

    const authorizeWrite: AgentRunOptions['policy']['authorizeWrite'] = async (req) =>
      req.tool.name === 'send_reminder' ? { decision: 'execute' } : { decision: 'deny', message: 'no' };
    fake.script(call, { text: 'ok' });
    const executed = await runAgent(base({ tools: [remind], policy: testPolicy({ authorizeWrite }) }));
    expect(sent).toEqual([{ bookingId: 'b1' }]);
    expect(executed.proposals).toEqual([]);
  });

  it('offers a tool that needs a connection only when the policy says the workspace has it; with no check, every tool', async () => {
    const calendar = defineTool({ name: 'calendar_slots', description: 'Free slots.', input: z.object({}), kind: 'read', connection: 'google_calendar', handler: async () => [] });
    const offered = () => (fake.requests.at(-1)!.body.tools as Array<{ name: string }>).map((t) => t.name);
    const asked: string[] = [];
    await runAgent(base({ tools: [lookup, calendar], policy: testPolicy({ connections: async (ws, connection) => (asked.push(`${ws}:${connection}`), false) }) }));
    expect(offered()).toEqual(['finish', 'lookup_bookings']);
    expect(asked).toEqual([`${workspaceId}:google_calendar`]);
    await runAgent(base({ tools: [lookup, calendar], policy: testPolicy({ connections: async () => true }) }));
    expect(offered()).toEqual(['calendar_slots', 'finish', 'lookup_bookings']);
    await runAgent(base({ tools: [lookup, calendar] }));
    expect(offered()).toEqual(['calendar_slots', 'finish', 'lookup_bookings']);
  });

  it('does not start when the policy cannot say whose names to hide: nothing reaches the model', async () => {
    const result = await runAgent(base({ policy: testPolicy({ knownNames: async () => Promise.reject(new Error('names unavailable')) }) }));
    expect(result).toMatchObject({ ran: false, stopReason: 'error', error: { kind: 'internal', message: 'The run could not start: names unavailable' } });
    expect(fake.requests).toEqual([]);
  });

  it('accepts the seed contract: Record<string, AgentTool> with JSON Schema, validated all the same', async () => {
    const seen: unknown[] = [];
    const tools: Record<string, AgentTool> = {
      query_planet_metrics: {
        schema: { name: 'query_planet_metrics', description: 'Metrics.', input_schema: { type: 'object', properties: { planet: { type: 'string' } }, required: ['planet'] } },
        kind: 'read',
        handler: async (input) => {
          seen.push(input);
          return { content: '{"leads":4}' };
        },
      },
    };
    fake.script(
      { toolCalls: [{ name: 'query_planet_metrics', input: {} }, { name: 'query_planet_metrics', input: { planet: 'crm' } }] },
      { toolCalls: [{ name: 'finish', input: { summary: 's' } }] },
    );
    const result = await runAgent(base({ tools }));
    expect(result.stopReason).toBe('finished');
    expect(seen).toEqual([{ planet: 'crm' }]);
    expect(fake.requests[0]!.body.tools.map((t: any) => t.name)).toEqual(['finish', 'query_planet_metrics']);
  });
});

describe('runAgent: usage', () => {
  it('adds up usage across turns, cache reads included, into the run and the month', async () => {
    const { workspaceId: ws } = await createTestWorkspace(db(), 'pro');
    fake.script(
      { toolCalls: [{ name: 'lookup_bookings', input: { day: 'mon' } }], outputTokens: 10 },
      { toolCalls: [{ name: 'lookup_bookings', input: { day: 'tue' } }], outputTokens: 20 },
      { toolCalls: [{ name: 'finish', input: { summary: 'ok' } }], outputTokens: 30 },
    );
    const result = await runAgent(base({ workspaceId: ws }));
    const reported = fake.requests.map((r) => r.body); // the fake server's own accounting is per response
    expect(reported).toHaveLength(3);
    expect(result.usage.output_tokens).toBe(60);
    expect(result.usage.cache_creation_input_tokens).toBeGreaterThan(0);
    expect(result.usage.cache_read_input_tokens).toBeGreaterThan(0); // turns 2 and 3 read turn 1's prefix
    const row = await runRow(result.runId);
    expect(row).toMatchObject({
      input_tokens: result.usage.input_tokens,
      output_tokens: 60,
      cache_read_tokens: result.usage.cache_read_input_tokens,
      cache_write_tokens: result.usage.cache_creation_input_tokens,
    });
    const [month] = await db().query<Record<string, number>>(`select * from public.workspace_token_usage where workspace_id = $1`, [ws]);
    const totalIn = result.usage.input_tokens + result.usage.cache_read_input_tokens + result.usage.cache_creation_input_tokens;
    expect(month).toMatchObject({ input_tokens: totalIn, output_tokens: 60, cache_read_tokens: result.usage.cache_read_input_tokens });
  });
});

describe('runAgent: quota', () => {
  it('refuses a run over the monthly cap with a sentence for the owner, sends nothing, records it', async () => {
    const { workspaceId: ws } = await createTestWorkspace(db(), 'free');
    await db().query(`select public.increment_token_usage($1, 999000, 1000)`, [ws]);
    const result = await runAgent(base({ workspaceId: ws }));
    expect(result).toMatchObject({ ran: false, stopReason: 'quota_exceeded' });
    expect(result.message).toMatch(/^This workspace has used all 1,000,000 AI tokens included in the Free plan this month/);
    expect(fake.requests).toHaveLength(0);
    expect((await runRow(result.runId)).stop_reason).toBe('quota_exceeded');
  });

  it('warns the owner once when the month passes 80% of the cap', async () => {
    const { workspaceId: ws, email } = await createTestWorkspace(db(), 'free');
    await db().query(`select public.increment_token_usage($1, 799000, 0)`, [ws]);
    fake.respond = () => ({ text: 'ok', outputTokens: 2000 });
    await runAgent(base({ workspaceId: ws }));
    await runAgent(base({ workspaceId: ws }));
    const mails = await db().query<{ subject: string }>(`select subject from private.email_outbox where to_email = $1 and kind = 'quota_warning'`, [email]);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toMatch(/80% of this month's AI tokens used/);
    const [month] = await db().query<{ warning_sent_at: Date | null }>(`select warning_sent_at from public.workspace_token_usage where workspace_id = $1`, [ws]);
    expect(month!.warning_sent_at).not.toBeNull();
  });

  it('increment_token_usage adds to the month and reports the 80% warning due exactly once', async () => {
    const { workspaceId: ws } = await createTestWorkspace(db(), 'free');
    const add = async (tokensIn: number) =>
      (await db().query<{ used_tokens: number; cap_tokens: number; warn_now: boolean }>(`select * from public.increment_token_usage($1, $2, 0)`, [ws, tokensIn]))[0]!;
    expect(await add(700_000)).toMatchObject({ used_tokens: 700_000, cap_tokens: 1_000_000, warn_now: false });
    expect(await add(100_000)).toMatchObject({ used_tokens: 800_000, warn_now: true });
    expect(await add(100_000)).toMatchObject({ used_tokens: 900_000, warn_now: false });
  });

  it('sends a warning that came due but was never marked (a crash after the run record) with the next run', async () => {
    const { workspaceId: ws, email } = await createTestWorkspace(db(), 'free');
    // What a run's record leaves when the process dies before the warning's transaction: due, unmarked.
    const [due] = await db().query<{ warning_due: boolean }>(`select warning_due from private.add_token_usage($1, 850000, 0)`, [ws]);
    expect(due!.warning_due).toBe(true);
    fake.respond = () => ({ text: 'ok', outputTokens: 10 });
    await runAgent(base({ workspaceId: ws }));
    await runAgent(base({ workspaceId: ws }));
    const mails = await db().query<{ subject: string }>(`select subject from private.email_outbox where to_email = $1 and kind = 'quota_warning'`, [email]);
    expect(mails).toHaveLength(1);
  });
});

describe('runAgent: no backend', () => {
  it('answers ran: false when no backend is configured and the caller refuses the offline model', async () => {
    const restore = useFakeModelEnv({ CLAUDE_CONFIG_DIR: '/nonexistent' });
    try {
      const result = await runAgent(base({ allowOffline: false }));
      expect(result).toMatchObject({ ran: false, backend: 'none', error: { kind: 'no_backend' } });
      expect((await runRow(result.runId)).ran).toBe(false);
    } finally {
      restore();
      useFakeModelEnv({ ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: fake.url, AGENT_MAX_RETRIES: '2' });
    }
  });

  it('answers ran: false when the chosen backend is not configured, saying why', async () => {
    const result = await runAgent(base({ backend: 'openai' }));
    expect(result).toMatchObject({ ran: false, error: { kind: 'no_backend' } });
    expect(result.message).toMatch(/OPENAI_API_KEY is not set/);
    expect(fake.requests).toHaveLength(0);
  });
});
