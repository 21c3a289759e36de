import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import * as requestsRoute from '@/app/api/requests/route';
import * as topicsRoute from '@/app/api/topics/route';
import { startFakeModelServer, type FakeModelServer } from '@/lib/agent/testing';
import { createAgent } from '@/lib/agents';
import { createConversation, sendMessage } from '@/lib/chat';
import { openPglite, useDatabase as installDatabase, type Database } from '@/lib/db';
import { leaseFree } from '@/lib/queue';
import { createApiKey } from '@/lib/topics';
import { callRoute } from '@/lib/topics/testing';
import { createWorkspace } from '@/lib/workspaces';
import { createTestDatabase, testDbKind } from './db';
import { createUser } from './fixtures';
import { withDatabase } from './global-setup';
import { waitFor } from './wait';

/**
 * The app killed and restarted, and stopped on purpose, as separate processes (test/children/server.ts
 * runs what `next start` runs at start-up). The job is a topic request, or a hosted agent's turn, whose
 * model call the first process never sees answered.
 *
 * The time bound is the protocol's, not the host's speed: a topic request's lease is 60 s and a
 * delivery's 180 s, so a job run again within 10 s of the new process being up was freed because its
 * holder was known dead (the new process of the same install declares the old one dead at start), not
 * because its lease ran out. It takes well under a second on an idle machine; 10 s leaves room for a
 * loaded one.
 */

const ROOT = path.resolve(import.meta.dirname, '..');
const RERUN_BOUND_MS = 10_000;
/** How long a child process may take to start or a step to happen on a loaded machine before the test gives up. */
const PATIENCE_MS = 90_000;
const MAILBOX_KEY = 'restart-test-mailbox-key-0123456789';

let fake: FakeModelServer;
beforeAll(async () => {
  fake = await startFakeModelServer();
});
afterAll(() => fake.close());

interface App {
  child: ChildProcess;
  /** `performance.now()` when it said it was up. */
  ready: Promise<number>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** What it printed on stdout besides the protocol's lines. */
  printed: string[];
  query<T>(sql: string): Promise<T[]>;
}

const apps: App[] = [];
afterEach(() => {
  for (const app of apps.splice(0)) if (app.child.exitCode === null && app.child.signalCode === null) app.child.kill('SIGKILL');
});

/** The app's server side in a child process, on the given database. */
function startApp(database: Record<string, string>): App {
  const child = spawn(process.execPath, ['--conditions=react-server', '--import', 'tsx', 'test/children/server.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...database,
      SEED_DEMO: '0',
      LOG_LEVEL: 'warn',
      MODEL_BACKEND: 'anthropic',
      ANTHROPIC_API_KEY: 'sk-test',
      ANTHROPIC_BASE_URL: fake.url,
      AGENT_MAX_RETRIES: '0',
      DEV_MAILBOX: '1',
      DEV_MAILBOX_KEY: MAILBOX_KEY,
      APP_URL: 'http://127.0.0.1:3999',
    },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let ready!: (at: number) => void;
  const answers: Array<(line: string) => void> = [];
  const printed: string[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    if (line === 'ready') ready(performance.now());
    else if (line.startsWith('{"rows"') || line.startsWith('{"error"')) answers.shift()?.(line);
    else printed.push(line);
  });
  const app: App = {
    child,
    printed,
    ready: new Promise((resolve) => (ready = resolve)),
    exited: new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal }))),
    query: <T,>(sql: string) =>
      new Promise<T[]>((resolve, reject) => {
        answers.push((line) => {
          const answer = JSON.parse(line) as { rows?: T[]; error?: string };
          if (answer.error) reject(new Error(answer.error));
          else resolve(answer.rows!);
        });
        child.stdin!.write(`${sql.replace(/\s+/g, ' ')}\n`);
      }),
  };
  apps.push(app);
  return app;
}

/**
 * A database the children can open, seeded by `seed` run here first. PGlite: a data directory, closed
 * again before a child opens it (one process at a time, as a restart does). Postgres: a database of this
 * test's, reached by URL.
 */
async function prepareDatabase<T>(seed: () => Promise<T>) {
  let db: Database;
  let env: Record<string, string>;
  let dir: string | undefined;
  if (testDbKind === 'pglite') {
    dir = await mkdtemp(path.join(os.tmpdir(), 'mv-restart-'));
    db = await openPglite(path.join(dir, 'pg'), new Blob([await readFile(inject('pgliteSnapshot'))]));
    env = { PGLITE_DIR: path.join(dir, 'pg') };
  } else {
    db = await createTestDatabase();
    const [{ name }] = (await db.query<{ name: string }>('select current_database() as name')) as [{ name: string }];
    env = { DATABASE_URL: withDatabase(process.env.TEST_DATABASE_URL!, name) };
  }
  installDatabase(db);
  const seeded = await seed();
  installDatabase(undefined);
  if (dir) await db.close();
  return {
    seeded,
    env,
    /** The database as this process sees it, once no child has it open. */
    async open(): Promise<Database> {
      return dir ? openPglite(path.join(dir, 'pg')) : db;
    },
    async dispose() {
      if (dir) await rm(dir, { recursive: true, force: true });
      else await db.close();
    },
  };
}

/** One workspace with a topic and one submitted request (its wake event queued for the executor). */
async function topicRequest(prompt: string): Promise<string> {
  const owner = await createUser('restart');
  const workspace = await createWorkspace(owner, { name: 'Restart' });
  const { secret: key } = await createApiKey(owner, workspace.id, { name: 'restart' });
  const topic = await callRoute(topicsRoute.POST, 'POST', '/api/topics', { key, body: { name: 'queue', system_prompt: 'Answer.' } });
  const submitted = await callRoute(requestsRoute.POST, 'POST', '/api/requests', { key, body: { prompt, topic_id: topic.body.data.id } });
  expect(submitted.status).toBe(202);
  return submitted.body.data.id as string;
}

/** A hosted agent (its turns run in the app process) and a person's message to it in their DM. */
async function messageToHostedAgent(body: string): Promise<string> {
  const owner = await createUser('restart');
  const agent = await createAgent(owner, { name: 'Nova', runtime: 'hosted', backend: 'anthropic' });
  const { conversation } = await createConversation(owner, { kind: 'dm', workspaceId: agent.workspaceIds[0]!, agentIds: [agent.id] });
  await sendMessage({ kind: 'person', user: owner }, conversation.id, body);
  return conversation.id;
}

/** PGlite's control file: 1 is "shut down", 6 "in production" (it was not closed: the next open runs crash recovery). */
async function pgliteState(dir: string): Promise<number> {
  return (await readFile(path.join(dir, 'global', 'pg_control'))).readInt32LE(16);
}

const promptOf = (body: { messages: Array<{ content: Array<{ text?: string }> }> }) => body.messages.at(-1)!.content[0]!.text;

describe(`the app on ${testDbKind}`, () => {
  it(
    'killed (SIGKILL) mid-job and restarted: the job runs again within 10 s of the restart, and completes once',
    { timeout: 300_000 },
    async () => {
      const world = await prepareDatabase(() => topicRequest('survive kill -9'));
      try {
        fake.reset();
        // The first process's model call is never answered; the next one's is.
        fake.respond = () => (fake.requests.length === 1 ? { hang: true } : { text: 'answered after the restart' });

        const first = startApp(world.env);
        await waitFor(() => fake.requests.length >= 1, 'the first process to start the job', PATIENCE_MS);
        first.child.kill('SIGKILL');
        expect((await first.exited).signal).toBe('SIGKILL');

        const second = startApp(world.env);
        const upAt = await second.ready;
        await waitFor(() => fake.requests.length >= 2, 'the job to run again', PATIENCE_MS);
        console.info(`job ran again ${Math.round(fake.requests[1]!.receivedAt - upAt)} ms after the restart was up`);
        expect(fake.requests[1]!.receivedAt - upAt).toBeLessThan(RERUN_BOUND_MS);

        const [done] = await waitFor(async () => {
          const rows = await second.query<{ status: string; result: string; attempts: number }>(
            `select status, result, attempts from public.topic_requests where id = '${world.seeded}'`,
          );
          return rows[0]?.status === 'completed' && rows;
        }, 'the request to complete', PATIENCE_MS);
        expect(done).toEqual({ status: 'completed', result: 'answered after the restart', attempts: 2 });
        // Nothing runs it a third time.
        await new Promise((resolve) => setTimeout(resolve, 1500));
        expect(fake.requests.map((r) => promptOf(r.body))).toEqual(['survive kill -9', 'survive kill -9']);

        second.child.kill('SIGTERM');
        expect(await second.exited).toEqual({ code: 0, signal: null });
      } finally {
        await world.dispose();
      }
    },
  );

  it(
    'killed (SIGKILL) while a hosted agent was answering: the reply comes within 10 s of the restart, once',
    { timeout: 300_000 },
    async () => {
      const world = await prepareDatabase(() => messageToHostedAgent('are you there?'));
      try {
        fake.reset();
        const turns = () => fake.requests.filter((r) => r.api === 'anthropic');
        fake.respond = () => (turns().length === 1 ? { hang: true } : { toolCalls: [{ name: 'reply', input: { message: 'Here, after the restart.' } }] });

        const first = startApp(world.env);
        await waitFor(() => turns().length >= 1, 'the hosted agent to start its turn', PATIENCE_MS);
        first.child.kill('SIGKILL');
        await first.exited;

        const second = startApp(world.env);
        const upAt = await second.ready;
        await waitFor(() => turns().length >= 2, 'the turn to run again', PATIENCE_MS);
        console.info(`turn ran again ${Math.round(turns()[1]!.receivedAt - upAt)} ms after the restart was up`);
        // The delivery's lease is 180 s: only its holder being known dead frees it this soon.
        expect(turns()[1]!.receivedAt - upAt).toBeLessThan(RERUN_BOUND_MS);

        const replies = await waitFor(async () => {
          const rows = await second.query<{ body: string }>(
            `select body from public.messages where conversation_id = '${world.seeded}' and author_kind = 'agent'`,
          );
          return rows.length > 0 && rows;
        }, 'the reply', PATIENCE_MS);
        await new Promise((resolve) => setTimeout(resolve, 1500));
        expect(await second.query(`select body from public.messages where conversation_id = '${world.seeded}' and author_kind = 'agent'`)).toEqual(replies);
        expect(replies).toEqual([{ body: 'Here, after the restart.' }]);
        expect(await second.query(`select status, attempts from private.deliveries where conversation_id = '${world.seeded}'`)).toEqual([
          { status: 'done', attempts: 2 },
        ]);
        expect(turns()).toHaveLength(2);

        second.child.kill('SIGTERM');
        expect(await second.exited).toEqual({ code: 0, signal: null });
      } finally {
        await world.dispose();
      }
    },
  );

  it(
    'stopped (SIGTERM) mid-job: hands the job back, closes the database cleanly and exits',
    { timeout: 300_000 },
    async () => {
      const world = await prepareDatabase(() => topicRequest('stop politely'));
      try {
        fake.reset();
        fake.respond = () => ({ hang: true });
        const app = startApp(world.env);
        await app.ready;
        // The owner's way into the whole dev mailbox is printed at start, next to where a demo login would be.
        expect(app.printed).toContain(`  Dev mailbox (all mail): http://127.0.0.1:3999/dev/mailbox/unlock?key=${MAILBOX_KEY}`);
        await waitFor(() => fake.requests.length >= 1, 'the process to start the job', PATIENCE_MS);
        app.child.kill('SIGTERM');
        expect(await app.exited).toEqual({ code: 0, signal: null });
        if (world.env.PGLITE_DIR) expect(await pgliteState(world.env.PGLITE_DIR)).toBe(1);

        const db = await world.open();
        try {
          // The request it was running is free for the next process at once, not in 60 s.
          const [request] = await db.query<{ status: string; free: boolean }>(
            `select status, ${leaseFree('r')} as free from public.topic_requests r where id = $1`,
            [world.seeded],
          );
          expect(request).toEqual({ status: 'processing', free: true });
          expect(await db.query(`select 1 from private.queue_workers where alive_until > now()`)).toEqual([]);
        } finally {
          if (world.env.PGLITE_DIR) await db.close();
        }
      } finally {
        await world.dispose();
      }
    },
  );
});
