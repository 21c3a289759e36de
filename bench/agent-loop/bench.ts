import { randomUUID } from 'node:crypto';
import Anthropic from '@anthropic-ai/sdk';
import { z } from 'zod';
import { defineTool, runAgent, quotaState, recordRun, type AgentRunResult, type ToolDefinition } from '@/lib/agent';
import { startFakeModelServer, testPolicy, type FakeModelServer } from '@/lib/agent/testing';
import { resetConfigForTests } from '@/lib/config';
import { migrate, useDatabase as installDatabase } from '@/lib/db';
import { openBenchDatabase } from '../database';
import type { Bench } from '../run';
import { median, ms } from '../stats';

/**
 * The runtime's overhead per iteration against a bare @anthropic-ai/sdk loop making the same calls to the
 * same fake server: 10 iterations, 5 read tools a turn (finish on the 10th). The fake server answers at
 * once, so the difference is all overhead. An iteration is timed as the loop's period: from one model
 * request reaching the server to the next (the server notes when each arrives), over a run's nine
 * turn-to-turn intervals; that holds the response's handling, the tool calls and the next request's
 * building, and nothing a run pays once. The ratio to the bare loop is taken in each round (every loop runs
 * once a round, in a shuffled order) and its median reported. A third loop, the bare one plus the two
 * statements the runtime makes per run (the quota read before the first call, the run record after the
 * last), shows how much of the whole run's difference those statements are; a fourth, the bare one plus two
 * `select 1`, what any two statements there cost at the least. Runs of one iteration (finish at once) of
 * the runtime and of the bare loop give the per-iteration cost a second way, by subtraction, with what that
 * way also counts (see bench/README.md).
 */
const ITERATIONS = 10;
const TOOLS = 5;
const WARMUP = 20;
const RUNS = 400;

const CUSTOMERS = ['Mario Rossi', 'Giulia Bianchi', 'Luca Verdi'];
const SYSTEM = `You are the CRM planet agent of a small hair salon. ${'Rules: be brief, cite numbers, never invent data. '.repeat(20)}`;

function benchTools(): ToolDefinition[] {
  return Array.from({ length: TOOLS }, (_, i) =>
    defineTool({
      name: `crm_read_${i + 1}`,
      description: `Reads CRM aggregate ${i + 1}.`,
      input: z.object({ days: z.number().int().min(1).max(90), segment: z.enum(['all', 'new', 'lapsed']) }),
      kind: 'read',
      handler: async ({ days, segment }) => ({
        days,
        segment,
        count: 12 + i,
        top: { name: CUSTOMERS[i % 3], email: `cliente${i}@example.it`, visits: 7 },
      }),
    }),
  );
}

/** The scripted model: 5 tool calls a turn, finish on the last one. Same for both loops. */
function script(fake: FakeModelServer, iterations: number) {
  fake.respond = (request) => {
    const turn = (request.body.messages as unknown[]).length / 2 + 0.5;
    if (turn >= iterations) return { toolCalls: [{ name: 'finish', input: { summary: 'Leads are up.' } }], outputTokens: 20 };
    return { toolCalls: Array.from({ length: TOOLS }, (_, i) => ({ name: `crm_read_${i + 1}`, input: { days: 7 + turn, segment: 'all' } })), outputTokens: 60 };
  };
}

/** The bare loop: what a caller writes with the SDK alone, sending the same requests the runtime sends. */
async function bareLoop(client: Anthropic, tools: ToolDefinition[], iterations = ITERATIONS) {
  const specs = [
    { name: 'finish', description: 'Call when the task is done, with a short summary. Nothing else runs after it.', input_schema: { additionalProperties: false, properties: { summary: { type: 'string' } }, required: ['summary'], type: 'object' } },
    ...tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema as Anthropic.Tool.InputSchema })),
  ] as Anthropic.Tool[];
  const byName = new Map(tools.map((t) => [t.name, t]));
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: [{ type: 'text', text: 'Daily analysis.' }] }];
  for (let i = 0; i < iterations; i++) {
    const last = messages.at(-1)!.content as Anthropic.ContentBlockParam[];
    const marked = [...messages.slice(0, -1), { role: 'user' as const, content: [...last.slice(0, -1), { ...last.at(-1)!, cache_control: { type: 'ephemeral' as const } } as Anthropic.ContentBlockParam] }];
    const response = await client.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 800,
      tools: specs,
      system: [{ type: 'text', text: SYSTEM, cache_control: { type: 'ephemeral' } }, { type: 'text', text: 'Today is Monday.' }],
      messages: marked,
    });
    messages.push({ role: 'assistant', content: response.content });
    const calls = response.content.filter((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use');
    if (calls.some((c) => c.name === 'finish')) return;
    const results = await Promise.all(
      calls.map(async (c) => ({ type: 'tool_result' as const, tool_use_id: c.id, content: JSON.stringify(await byName.get(c.name)!.handler(c.input, undefined as never)) })),
    );
    messages.push({ role: 'user', content: results });
  }
}

// A fixed order would have each loop always follow the same other one, and a run leaves work behind
// (sockets closing, garbage) for whichever runs next: each round runs the loops in a shuffled order.
function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

const bench: Bench = async () => {
  const fake = await startFakeModelServer();
  Object.assign(process.env, { ANTHROPIC_API_KEY: 'sk-bench', ANTHROPIC_BASE_URL: fake.url, LOG_LEVEL: 'warn', MODEL_BACKEND: 'anthropic' });
  resetConfigForTests();
  const { db, drop } = await openBenchDatabase();
  await migrate(db);
  installDatabase(db);
  const [user] = await db.query<{ id: string }>(`insert into auth.users (email) values ('bench@example.test') returning id`);
  const [ws] = await db.query<{ id: string }>(`update public.workspaces set plan = 'business' where owner_id = $1 returning id`, [user!.id]);
  const policy = testPolicy({ names: CUSTOMERS });
  const tools = benchTools();
  const client = new Anthropic({ apiKey: 'sk-bench', baseURL: fake.url, maxRetries: 0 });

  let lastRun: AgentRunResult | undefined;
  const runtimeLoop = async (iterations: number) => {
    const result = await runAgent({ system: SYSTEM, context: 'Today is Monday.', firstMessage: 'Daily analysis.', tools, workspaceId: ws!.id, policy, planet: 'crm', trigger: 'bench', maxIterations: iterations });
    if (result.stopReason !== 'finished' || result.iterations !== iterations) throw new Error(`runtime run ended ${result.stopReason} after ${result.iterations}`);
    return result;
  };
  const runtime = async () => {
    lastRun = await runtimeLoop(ITERATIONS);
  };
  const bare = () => bareLoop(client, tools);
  // The same statements runAgent makes, the record carrying a real run's result (46 tool calls).
  const bareWithStatements = async () => {
    await quotaState(db, ws!.id);
    await bareLoop(client, tools);
    await recordRun(db, { id: randomUUID(), workspaceId: ws!.id, agentName: '', planet: 'crm', trigger: 'bench', result: lastRun! });
  };
  // The floor for any two statements around the loop: the cheapest one there is, twice, through the same helper.
  const bareWithTrivialStatements = async () => {
    await db.query('select 1');
    await bareLoop(client, tools);
    await db.query('select 1');
  };
  // Runs of one turn (finish at once): what a run costs apart from its iterations; the difference to the
  // 10-turn runs is the per-iteration cost by subtraction, for the runtime and for the bare loop.
  const runtimeOneTurn = async () => {
    await runtimeLoop(1);
  };
  const bareOneTurn = () => bareLoop(client, tools, 1);
  script(fake, ITERATIONS);
  await runtime();

  const loops = { runtime, bare, bareWithStatements, bareWithTrivialStatements, runtimeOneTurn, bareOneTurn };
  // How many turns the scripted model gives each loop before it finishes.
  const turns: Record<keyof typeof loops, number> = {
    runtime: ITERATIONS,
    bare: ITERATIONS,
    bareWithStatements: ITERATIONS,
    bareWithTrivialStatements: ITERATIONS,
    runtimeOneTurn: 1,
    bareOneTurn: 1,
  };
  const names = Object.keys(loops) as Array<keyof typeof loops>;
  const times = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<keyof typeof loops, number[]>;
  const periods = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<keyof typeof loops, number[]>;
  // Each round runs every loop once, close together in time: the ratio within a round does not move with
  // the host's speed from one minute to the next, as two medians taken over the whole bench do.
  const pairedRatios: number[] = [];
  let seed = 1;
  const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  for (let i = 0; i < WARMUP + RUNS; i++) {
    for (const name of shuffled(names, random)) {
      fake.reset(); // the same cache state (cold) at the start of every run, for every loop
      script(fake, turns[name]);
      const started = performance.now();
      await loops[name]();
      if (i < WARMUP) continue;
      times[name].push(performance.now() - started);
      const arrived = fake.requests.map((r) => r.receivedAt);
      if (arrived.length > 1) periods[name].push((arrived.at(-1)! - arrived[0]!) / (arrived.length - 1));
    }
    if (i >= WARMUP) pairedRatios.push(periods.runtime.at(-1)! / periods.bare.at(-1)!);
  }
  await fake.close();
  await db.close();
  await drop();

  const m = Object.fromEntries(names.map((name) => [name, median(times[name])])) as Record<keyof typeof loops, number>;
  const p = Object.fromEntries(names.map((name) => [name, periods[name].length ? median(periods[name]) : NaN])) as Record<keyof typeof loops, number>;
  const bySubtraction = { runtime: (m.runtime - m.runtimeOneTurn) / (ITERATIONS - 1), bare: (m.bare - m.bareOneTurn) / (ITERATIONS - 1) };
  const x = (a: number, b: number) => Number((a / b).toFixed(3));
  const row = (loop: string, name: keyof typeof loops, vsBare: keyof typeof loops) => ({
    loop,
    'ms/run': ms(m[name]),
    'x bare': x(m[name], m[vsBare]),
    'ms/iteration': Number.isNaN(p[name]) ? '' : ms(p[name]),
    'x bare/iteration': Number.isNaN(p[name]) ? '' : x(p[name], p[vsBare]),
  });
  return {
    title: `agent-loop on ${db.kind}: ${ITERATIONS} iterations x ${TOOLS} tools, ${RUNS} runs each (after ${WARMUP} warm-up), medians; an iteration is the time from one model request to the next`,
    rows: [
      row('bare @anthropic-ai/sdk', 'bare', 'bare'),
      row('bare + two select 1', 'bareWithTrivialStatements', 'bare'),
      row('bare + quota read + run record', 'bareWithStatements', 'bare'),
      row('runAgent (anthropic backend)', 'runtime', 'bare'),
      row('bare, 1 iteration (finish at once)', 'bareOneTurn', 'bareOneTurn'),
      row('runAgent, 1 iteration (finish at once)', 'runtimeOneTurn', 'bareOneTurn'),
    ],
    notes: [
      `per iteration (target <= 1.10x): runAgent/bare in the same round, median ${median(pairedRatios).toFixed(3)}x; medians ${ms(p.runtime)} / ${ms(p.bare)} ms, ${(p.runtime / p.bare).toFixed(3)}x`,
      `per iteration by subtraction (a ${ITERATIONS}-iteration run less a 1-iteration one, over ${ITERATIONS - 1}): runAgent ${ms(bySubtraction.runtime)} ms, bare ${ms(bySubtraction.bare)} ms, ratio ${(bySubtraction.runtime / bySubtraction.bare).toFixed(3)}x`,
      `per run, apart from its iterations (a 1-iteration run against the bare one: quota read, run record, setup): runAgent ${ms(m.runtimeOneTurn - m.bareOneTurn)} ms more`,
      `whole run at ${ITERATIONS} iterations: ratio runtime/bare ${(m.runtime / m.bare).toFixed(3)}x, of which the quota read and the run record ${ms(m.bareWithStatements - m.bare)} ms/run`,
    ],
  };
};

export default bench;
