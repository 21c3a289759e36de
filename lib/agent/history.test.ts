import { chmod, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setupTestDatabase } from '@/test/db';
import { runAgent, type AgentRunOptions } from '@/lib/agent';
import { createTestWorkspace, startFakeModelServer, testPolicy, useFakeModelEnv, type FakeModelServer } from '@/lib/agent/testing';

/** `history`: earlier turns of a conversation (the topic queue's sessions), replayed or resumed. */

process.env.LOG_LEVEL = 'silent';
const db = setupTestDatabase();

let fake: FakeModelServer;
let restoreEnv: () => void = () => {};
let workspaceId: string;

beforeAll(async () => {
  fake = await startFakeModelServer();
  ({ workspaceId } = await createTestWorkspace(db()));
});
afterAll(() => fake.close());
afterEach(() => {
  restoreEnv();
  fake.reset();
});

const options = (over: Partial<AgentRunOptions> = {}): AgentRunOptions => ({
  system: 'You answer questions.',
  firstMessage: 'And the second one?',
  history: [
    { role: 'user', text: 'Write to anna.bianchi@example.com first.' },
    { role: 'assistant', text: 'Done, the first one is written.' },
  ],
  tools: [],
  policy: testPolicy(),
  workspaceId,
  trigger: 'test',
  ...over,
});

describe('runAgent history', () => {
  it('reaches a turn backend as real turns before the new message, across the PII boundary', async () => {
    restoreEnv = useFakeModelEnv({ ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: fake.url, MODEL_BACKEND: 'anthropic' });
    fake.script({ text: 'Here is the second one.' });
    const result = await runAgent(options());
    expect(result).toMatchObject({ ran: true, stopReason: 'no_tool_use', finalText: 'Here is the second one.' });
    const messages = fake.requests[0]!.body.messages as Array<{ role: string; content: Array<{ text: string }> }>;
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(messages[0]!.content[0]!.text).toMatch(/^Write to email-[0-9A-F]+ first\.$/);
    expect(messages[2]!.content[0]!.text).toBe('And the second one?');
  });

  it('reaches a backend with its own sessions as a transcript, or not at all when it resumes', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'mv-codex-history-'));
    const log = path.join(dir, 'calls.jsonl');
    const bin = path.join(dir, 'codex');
    // A stand-in for `codex exec --json` that records its arguments and answers with plain text.
    await writeFile(
      bin,
      `#!/usr/bin/env node
const fs = require('node:fs');
fs.appendFileSync(${JSON.stringify(log)}, JSON.stringify(process.argv.slice(2)) + '\\n');
const out = (e) => process.stdout.write(JSON.stringify(e) + '\\n');
out({ type: 'thread.started', thread_id: 'thread-9' });
out({ type: 'item.completed', item: { type: 'agent_message', text: JSON.stringify({ message: 'Second.', tool_calls: [] }) } });
out({ type: 'turn.completed', usage: { input_tokens: 1, cached_input_tokens: 0, output_tokens: 1 } });
`,
    );
    await chmod(bin, 0o755);
    restoreEnv = useFakeModelEnv({ CODEX_BIN: bin, MODEL_BACKEND: 'codex' });

    expect((await runAgent(options())).finalText).toBe('Second.');
    expect((await runAgent(options({ resume: 'thread-9' }))).finalText).toBe('Second.');
    const [fresh, resumed] = (await readFile(log, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as string[]);
    expect(fresh!.at(-1)).toMatch(/The conversation so far:\n\nUser: Write to email-[0-9A-F]+ first\.\n\nAssistant: Done, the first one is written\.\n\nThe new message:\n\nAnd the second one\?$/);
    expect(resumed).toEqual(expect.arrayContaining(['resume', 'thread-9']));
    expect(resumed!.at(-1)).toBe('And the second one?');
  });
});
