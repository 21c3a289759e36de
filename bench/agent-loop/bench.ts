import { randomUUID } from 'node:crypto';
import Anthropic from '@anthropic-ai/sdk';
import { z } from 'zod';
import { defineTool, registerKnownNamesSource, runAgent, type AgentRunResult, type ToolDefinition } from '@/lib/agent';
import { startFakeModelServer, type FakeModelServer } from '@/lib/agent/testing';
import { quotaState, recordRun } from '@/lib/agent/usage';
import { resetConfigForTests } from '@/lib/config';
import { migrate, useDatabase as installDatabase } from '@/lib/db';
import { openBenchDatabase } from '../database';
import type { Bench } from '../run';
import { median, ms } from '../stats';

/**
 * The runtime's overhead per iteration against a bare @anthropic-ai/sdk loop making the same calls to the
 * same fake server: 10 iterations, 5 read tools a turn (finish on the 10th). The fake server answers at
 * once, so the difference is all overhead. A third loop, the bare one plus the two statements the runtime
 * makes per run (the quota read before the first call, the run record after the last), shows how much of
 * the difference those statements are; a fourth, the bare one plus two `select 1`, what any two statements
 * there cost at the least. Runs of one iteration (finish at once) of the runtime and of the bare loop
 * separate what an iteration costs from what a run costs once (setup, the two statements).
 */
const ITERATIONS = 10;
const TOOLS = 5;
const WARMUP = 20;
const RUNS = 200;

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
  const unregister = registerKnownNamesSource(async () => CUSTOMERS);
  const tools = benchTools();
  const client = new Anthropic({ apiKey: 'sk-bench', baseURL: fake.url, maxRetries: 0 });

  let lastRun: AgentRunResult | undefined;
  const runtimeLoop = async (iterations: number) => {
    const result = await runAgent({ system: SYSTEM, context: 'Today is Monday.', firstMessage: 'Daily analysis.', tools, workspaceId: ws!.id, planet: 'crm', trigger: 'bench', maxIterations: iterations });
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
  // Runs of one turn (finish at once): what a run costs apart from its iterations, so that the difference
  // to the 10-turn runs is the cost of 9 iterations alone, for the runtime and for the bare loop.
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
  let seed = 1;
  const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  for (let i = 0; i < WARMUP + RUNS; i++) {
    for (const name of shuffled(names, random)) {
      fake.reset(); // the same cache state (cold) at the start of every run, for every loop
      script(fake, turns[name]);
      const started = performance.now();
      await loops[name]();
      if (i >= WARMUP) times[name].push(performance.now() - started);
    }
  }
  unregister();
  await fake.close();
  await db.close();
  await drop();

  const rt = median(times.runtime);
  const br = median(times.bare);
  const bs = median(times.bareWithStatements);
  const bt = median(times.bareWithTrivialStatements);
  const rt1 = median(times.runtimeOneTurn);
  const br1 = median(times.bareOneTurn);
  const perIteration = { runtime: (rt - rt1) / (ITERATIONS - 1), bare: (br - br1) / (ITERATIONS - 1) };
  const row = (loop: string, total: number, turns: number, vsBare: number) => ({ loop, 'ms/run': ms(total), 'ms/iteration': ms(total / turns), 'x bare': Number((total / vsBare).toFixed(3)) });
  return {
    title: `agent-loop on ${db.kind}: ${ITERATIONS} iterations x ${TOOLS} tools, ${RUNS} runs each (after ${WARMUP} warm-up), medians`,
    rows: [
      row('bare @anthropic-ai/sdk', br, ITERATIONS, br),
      row('bare + two select 1', bt, ITERATIONS, br),
      row('bare + quota read + run record', bs, ITERATIONS, br),
      row('runAgent (anthropic backend)', rt, ITERATIONS, br),
      row('bare, 1 iteration (finish at once)', br1, 1, br1),
      row('runAgent, 1 iteration (finish at once)', rt1, 1, br1),
    ],
    notes: [
      `per iteration (a ${ITERATIONS}-iteration run less a 1-iteration one, over ${ITERATIONS - 1}): runAgent ${ms(perIteration.runtime)} ms, bare ${ms(perIteration.bare)} ms, ratio ${(perIteration.runtime / perIteration.bare).toFixed(3)}x (target <= 1.10x)`,
      `per run, apart from its iterations (a 1-iteration run against the bare one: quota read, run record, setup): runAgent ${ms(rt1 - br1)} ms more`,
      `whole run at ${ITERATIONS} iterations: ratio runtime/bare ${(rt / br).toFixed(3)}x`,
      `of which the quota read and the run record: ${ms(bs - br)} ms/run; the loop itself (validation, guards, PII boundary, telemetry): ${ms(rt - bs)} ms/run, ${((rt - (bs - br)) / br).toFixed(3)}x bare`,
    ],
  };
};

export default bench;
