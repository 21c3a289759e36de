import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { setupTestDatabase } from '@/test/db';
import { defineTool, runAgent, type AgentRunOptions } from '@/lib/agent';
import { createTestWorkspace, startFakeModelServer, testPolicy, useFakeModelEnv, type FakeModelServer } from '@/lib/agent/testing';
import { CLAUDE_AGENT_SDK } from './backends/claude-code';

process.env.LOG_LEVEL = 'silent';

// The SDK is an optional install (npm run setup:claude-code); without it these tests are skipped.
const installed = (() => {
  try {
    createRequire(path.join(process.cwd(), 'package.json')).resolve(CLAUDE_AGENT_SDK);
    return true;
  } catch {
    return false;
  }
})();

const db = setupTestDatabase();

describe.skipIf(!installed)('claude-code backend (the real Claude Code CLI against the fake server)', () => {
  let fake: FakeModelServer;
  let restoreEnv: () => void;
  let configDir: string;
  let workspaceId: string;

  beforeAll(async () => {
    fake = await startFakeModelServer();
    configDir = await mkdtemp(path.join(os.tmpdir(), 'mv-claude-'));
    // The CLI honours ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY; its sessions go to a directory of our own.
    restoreEnv = useFakeModelEnv({ ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: fake.url, CLAUDE_CONFIG_DIR: configDir });
    ({ workspaceId } = await createTestWorkspace(db()));
  });
  afterAll(async () => {
    restoreEnv();
    await fake.close();
    await rm(configDir, { recursive: true, force: true });
  });

  const bookings = defineTool({
    name: 'todays_bookings',
    description: 'Bookings today.',
    input: z.object({ day: z.string() }),
    kind: 'read',
    handler: async ({ day }) => `${day}: Mario Rossi (mario@example.it) at 9:30`,
  });
  const options = (over: Partial<AgentRunOptions> = {}): AgentRunOptions => ({
    backend: 'claude-code',
    system: 'You write the daily pulse.',
    context: 'Today is Monday.',
    firstMessage: 'Pulse for today, please.',
    tools: [bookings],
    workspaceId,
    policy: testPolicy({ names: ['Mario Rossi'] }),
    trigger: 'test',
    ...over,
  });

  // The CLI prefixes our tools with the MCP server's name.
  const toolResultsSeen = () => fake.requests.flatMap((r) => (r.body?.messages ?? []).flatMap((m: any) => (Array.isArray(m.content) ? m.content : [])).filter((b: any) => b.type === 'tool_result'));

  it('runs the loop in the CLI with our tools, guards and PII boundary; stops right after finish', async () => {
    fake.script(
      { toolCalls: [{ name: 'mcp__multiverbe__todays_bookings', input: { day: 'today' } }, { name: 'mcp__multiverbe__nope', input: {} }] },
      { text: 'Done.', toolCalls: [{ name: 'mcp__multiverbe__finish', input: { summary: 'Mario Rossi is first today' } }] },
    );
    const first = await runAgent(options());
    expect(first).toMatchObject({ ran: true, backend: 'claude-code', stopReason: 'finished', output: { summary: 'Mario Rossi is first today' } });
    expect(first.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const models = fake.requests.filter((r) => r.api === 'anthropic');
    expect(models).toHaveLength(2); // no extra turn after finish
    expect(models[0]!.body.stream).toBe(true);
    expect(models[0]!.body.tools.map((t: any) => t.name)).toEqual(['mcp__multiverbe__finish', 'mcp__multiverbe__todays_bookings']);
    expect(first.toolCalls.map((c) => [c.name, c.ok])).toEqual(expect.arrayContaining([['todays_bookings', true], ['finish', true]]));
    for (const request of fake.requests) {
      expect(request.raw).not.toContain('Mario Rossi');
      expect(request.raw).not.toContain('mario@example.it');
    }
    expect(JSON.stringify(toolResultsSeen())).toMatch(/today: Cliente-[0-9A-F]{4} \(email-[0-9A-F]{4}\) at 9:30/);
    expect(first.usage.output_tokens).toBeGreaterThan(0);
    expect(first.usage.cache_read_input_tokens).toBeGreaterThan(0);

    // A second run resumes the session: the CLI sends the earlier conversation again.
    fake.reset();
    fake.script({ text: 'Still the same.' });
    const second = await runAgent(options({ firstMessage: 'And now?', resume: first.sessionId }));
    expect(second).toMatchObject({ ran: true, stopReason: 'no_tool_use', finalText: 'Still the same.' });
    const resumed = fake.requests.find((r) => r.api === 'anthropic')!;
    expect(resumed.raw).toContain('Pulse for today, please.');
    expect(resumed.raw).toContain('And now?');
  });
});
