import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { setupTestDatabase } from '@/test/db';
import { defineTool, runAgent, type AgentRunOptions } from '@/lib/agent';
import { createTestWorkspace, startFakeModelServer, testPolicy, useFakeModelEnv, type FakeModelServer } from '@/lib/agent/testing';

process.env.LOG_LEVEL = 'silent';
const db = setupTestDatabase();

let fake: FakeModelServer;
let restoreEnv: () => void;
beforeAll(async () => {
  fake = await startFakeModelServer();
  restoreEnv = useFakeModelEnv({ ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: fake.url });
});
afterAll(async () => {
  restoreEnv();
  await fake.close();
});

// Two definitions of the same tool, their schema keys written in different orders.
const metricsA = defineTool({
  name: 'planet_metrics',
  description: 'Metrics of a planet.',
  input: z.object({ planet: z.enum(['crm', 'booking']), days: z.number().int().optional(), compare: z.boolean().optional() }),
  kind: 'read',
  handler: async ({ planet }) => ({ planet, leads: 4, at: new Date().toISOString() }),
});
const metricsB = defineTool({
  name: 'planet_metrics',
  description: 'Metrics of a planet.',
  input: z.object({ compare: z.boolean().optional(), days: z.number().int().optional(), planet: z.enum(['crm', 'booking']) }),
  kind: 'read',
  handler: metricsA.handler,
});
const benchmark = defineTool({
  name: 'sector_benchmark',
  description: 'The sector benchmark.',
  input: z.object({ sector: z.string() }),
  kind: 'read',
  handler: async () => ({ noShowRate: 0.23 }),
});

describe('prompt cache discipline', () => {
  it('keeps the bytes before the breakpoint identical across turns and runs; what changes comes after it', async () => {
    const { workspaceId } = await createTestWorkspace(db());
    const agent = (tools: AgentRunOptions['tools'], context: string): AgentRunOptions => ({
      system: 'You are the CRM planet agent. Rules: be brief. Personality: warm. Skills: follow-ups, win-back.',
      context,
      firstMessage: 'Daily analysis.',
      tools,
      workspaceId,
      policy: testPolicy(),
      planet: 'crm',
      trigger: 'cron:analyze_planet_data',
    });
    const script = () =>
      fake.script(
        { toolCalls: [{ name: 'planet_metrics', input: { planet: 'crm' } }] },
        { toolCalls: [{ name: 'sector_benchmark', input: { sector: 'salon' } }] },
        { toolCalls: [{ name: 'finish', input: { summary: 'ok' } }] },
      );

    script();
    const first = await runAgent(agent([metricsA, benchmark], 'Today is Monday 30 November 2026, 06:00. Data: 12 new leads.'));
    script();
    const second = await runAgent(agent([benchmark, metricsB], 'Today is Tuesday 1 December 2026, 06:00. Data: 9 new leads.'));
    expect([first.stopReason, second.stopReason]).toEqual(['finished', 'finished']);

    const requests = fake.requests.filter((r) => r.api === 'anthropic');
    expect(requests).toHaveLength(6);
    const prefixes = new Set(requests.map((r) => r.cachePrefix));
    expect(prefixes.size).toBe(1);
    const [prefix] = prefixes;
    expect(prefix).toContain('You are the CRM planet agent.');
    expect(prefix).not.toMatch(/2026|leads/);

    // The stable block carries the breakpoint; the run's context follows it, unmarked.
    const system = requests[0]!.body.system;
    expect(system).toEqual([
      { type: 'text', text: expect.stringContaining('CRM planet agent'), cache_control: { type: 'ephemeral' } },
      { type: 'text', text: expect.stringContaining('Monday') },
    ]);
    expect(requests[3]!.body.system[1].text).toContain('Tuesday');

    // The second breakpoint is on the last block of the conversation only: earlier turns go as they were sent.
    for (const request of requests) {
      const marked = request.body.messages.flatMap((m: any, i: number) => m.content.flatMap((b: any, j: number) => (b.cache_control ? [[i, j]] : [])));
      const last = request.body.messages.at(-1);
      expect(marked).toEqual([[request.body.messages.length - 1, last.content.length - 1]]);
    }

    // Tools in name order with sorted schema keys, whatever order they were given or written in.
    expect(requests[0]!.body.tools.map((t: any) => t.name)).toEqual(['finish', 'planet_metrics', 'sector_benchmark']);
    expect(Object.keys(requests[0]!.body.tools[1].input_schema.properties)).toEqual(['compare', 'days', 'planet']);

    // The second run starts by reading the prefix the first one wrote.
    expect(first.usage.cache_creation_input_tokens).toBeGreaterThan(0);
    expect(second.usage.cache_read_input_tokens).toBeGreaterThan(0);
  });
});
