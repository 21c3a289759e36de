import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetConfigForTests } from '@/lib/config';
import { asService } from '@/lib/db';
import { createTopic, submitRequest, type Caller } from '@/lib/topics';
import { createWorkspace } from '@/lib/workspaces';
import { setupTestDatabase } from '@/test/db';
import { createUser } from '@/test/fixtures';
import { RUNTIMES, startRuntime } from '../testing';
import { processTopicRequest } from './process-topic-request';

setupTestDatabase();

const q = <T = Record<string, any>>(sql: string, params: unknown[] = []) => asService((tx) => tx.query<T>(sql, params));

beforeAll(() => {
  process.env.MODEL_BACKEND = 'offline';
  resetConfigForTests();
});
afterAll(() => {
  delete process.env.MODEL_BACKEND;
  resetConfigForTests();
});

async function workspaceWithTopic() {
  const owner = await createUser('owner');
  const workspace = await createWorkspace(owner, { name: 'Studio Aurora' });
  const caller: Caller = { kind: 'key', workspaceId: workspace.id, keyId: null };
  const topic = await createTopic(caller, { name: 'front desk', system_prompt: 'Answer briefly.', summary: '', model: null });
  const submit = async (prompt: string) =>
    (await submitRequest(caller, { prompt, topic_id: topic.id, session_id: null, model: null, summarize: false })).request.id;
  return { workspaceId: workspace.id, submit };
}

const requestsOf = (workspaceId: string) =>
  q<{ id: string; status: string; result: string | null; attempts: number }>(
    `select id, status, result, attempts from public.topic_requests where workspace_id = $1 order by seq`,
    [workspaceId],
  );

describe.each(RUNTIMES)('%s', (runtimeName) => {
  it('a queue whose worker died is woken by the minute’s sweep and drained, each run waking the next', async () => {
    const ws = await workspaceWithTopic();
    let now = new Date();
    const runtime = await startRuntime(runtimeName, { functions: [processTopicRequest], now: () => now });
    const first = await ws.submit('Who is in at ten?');
    // A worker claimed it and died: its lease still holds, and the workspace runs one request at a time.
    await q(
      `update public.topic_requests set status = 'processing', lease_owner = 'dead-worker', lease_expires_at = now() + interval '1 hour',
              attempts = 1, started_at = now() where id = $1`,
      [first],
    );
    const second = await ws.submit('And at eleven?');
    try {
      // The submits' wakes find the workspace busy.
      await runtime.runUntilIdle();
      expect((await requestsOf(ws.workspaceId)).map((r) => r.status)).toEqual(['processing', 'pending']);

      await q(`update public.topic_requests set lease_expires_at = now() - interval '1 second' where id = $1`, [first]);
      now = new Date(Math.ceil((now.getTime() + 1) / 60_000) * 60_000);
      await runtime.runUntilIdle();
    } finally {
      await runtime.stop();
    }

    expect(await requestsOf(ws.workspaceId)).toMatchObject([
      { id: first, status: 'completed', result: expect.stringMatching(/^\[offline model\] /), attempts: 2 },
      { id: second, status: 'completed', result: expect.stringMatching(/^\[offline model\] /), attempts: 1 },
    ]);
    expect((await runtime.runs('process-topic-request')).map((r) => [r.event.name, r.status, r.output])).toEqual([
      ['topics/queue.wake', 'completed', null],
      ['topics/queue.wake', 'completed', null],
      ['inngest/scheduled.timer', 'completed', { woken: 1 }],
      ['topics/queue.wake', 'completed', { requestId: first, status: 'completed', more: true }],
      ['topics/queue.wake', 'completed', { requestId: second, status: 'completed', more: false }],
    ]);
  });
});
