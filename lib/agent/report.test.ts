import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { setupTestDatabase } from '@/test/db';
import { defineTool, runAgent, runDetail, usageReport } from '@/lib/agent';
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

const metrics = defineTool({
  name: 'crm_metrics',
  description: 'CRM metrics.',
  input: z.object({}),
  kind: 'read',
  handler: async () => ({ leads: 4 }),
});

describe('usage report', () => {
  it('shows this month per planet and agent against the cap, the runs, and a run with its tool calls', async () => {
    const owner = await createTestWorkspace(db(), 'pro');
    const stranger = await createTestWorkspace(db());
    const run = (planet: string, agent: string) =>
      runAgent({ system: 's', firstMessage: 'go', tools: [metrics], workspaceId: owner.workspaceId, policy: testPolicy(), planet, agent: { id: agent, name: agent }, trigger: 'test' });

    fake.script({ toolCalls: [{ name: 'crm_metrics', input: {} }] }, { toolCalls: [{ name: 'finish', input: { summary: 'ok' } }] });
    const crm = await run('crm', 'CRM agent');
    fake.script({ text: 'nothing to do' });
    const booking = await run('booking', 'Booking agent');
    fake.script({ error: { status: 400, message: 'bad' } });
    await run('booking', 'Booking agent');

    const user = { id: owner.userId, email: owner.email };
    const report = (await usageReport(user, owner.workspaceId))!;
    const tokens = (r: typeof crm) => r.usage.input_tokens + r.usage.output_tokens + r.usage.cache_read_input_tokens + r.usage.cache_creation_input_tokens;
    expect(report).toMatchObject({ plan: 'pro', cap: 20_000_000, used: tokens(crm) + tokens(booking), warningSentAt: null });
    expect(report.byPlanet).toEqual([
      { planet: 'crm', tokens: tokens(crm), runs: 1 },
      { planet: 'booking', tokens: tokens(booking), runs: 2 },
    ].sort((a, b) => b.tokens - a.tokens));
    expect(report.byAgent.map((a) => [a.agentName, a.runs])).toEqual(expect.arrayContaining([['CRM agent', 1], ['Booking agent', 2]]));
    expect(report.runs.map((r) => r.stopReason)).toEqual(['error', 'no_tool_use', 'finished']);
    expect(report.backend).toMatchObject({ active: 'anthropic', available: true, source: 'automatic' });

    const detail = (await runDetail(user, owner.workspaceId, crm.runId!))!;
    expect(detail).toMatchObject({ stopReason: 'finished', iterations: 2, outcome: { output: { summary: 'ok' } } });
    expect(detail.toolCalls.map((c) => c.name)).toEqual(['crm_metrics', 'finish']);
    expect(typeof detail.toolCalls[0]!.ms).toBe('number');

    // Someone else sees neither the report nor the run.
    const other = { id: stranger.userId, email: stranger.email };
    expect(await usageReport(other, owner.workspaceId)).toBeUndefined();
    expect(await runDetail(other, owner.workspaceId, crm.runId!)).toBeUndefined();
  });
});
