import { randomUUID } from 'node:crypto';
import { invalidField, managersOnly } from '@/lib/api';
import { config } from '@/lib/config';
import { asService, getDb, type Tx } from '@/lib/db';
import { log } from '@/lib/log';
import { claim, finish as finishLease, held, leaseFree, processWorkerId, release, renew, type Queue } from '@/lib/queue';
import { inWorkspace, type Caller } from './auth';
import { answer, resolveModel, summarizeExchange, type Exchange, type Outcome } from './execute';

/**
 * The topic queue's worker side. Each workspace's requests run oldest first, at most `concurrency` at a
 * time (default 1), each under a lease the worker renews while it works. A worker that dies frees its
 * lease when it is known dead (lib/queue: at once when the app restarts) or when the lease runs out; the
 * next claim takes the request again, and a request claimed MAX_ATTEMPTS times fails with a clear error
 * instead of running again.
 */

export const LEASE_SECONDS = 60;
export const MAX_ATTEMPTS = 3;

export interface ClaimedRequest {
  id: string;
  workspace_id: string;
  topic_id: string;
  session_id: string;
  seq: number;
  prompt: string;
  model: string | null;
  summarize: boolean;
  attempts: number;
}

// The topic queue for the one lease primitive (lib/queue). Claimable: pending, or processing under a
// lease that ran out or whose worker died. A request waits while an earlier one of its session is
// unfinished (the later one needs its answer as history), and nothing is claimed while the workspace
// already runs `concurrency` requests under live leases (its setting, else the default).
export const topicRequests = (defaultConcurrency: number): Queue => ({
  table: 'public.topic_requests',
  idType: 'uuid',
  ready: (t) => `${t}.status = 'pending'`,
  leased: (t) => `${t}.status = 'processing'`,
  scope: (t, at) => `${t}.workspace_id = ${at.scope}::uuid`,
  order: (t) => `${t}.seq`,
  inOrder: { by: ['session_id'], seq: 'seq' },
  concurrency: {
    by: ['workspace_id'],
    limit: (t) => `coalesce((select s.concurrency from public.topic_queue_settings s where s.workspace_id = ${t}.workspace_id), ${Number(defaultConcurrency)})`,
    // A claim is for one workspace: its claims take turns, so the oldest request is never passed over.
    scopeIsGroup: true,
  },
  attempts: {
    max: MAX_ATTEMPTS,
    giveUp: () =>
      `status = 'failed', completed_at = now(), error = 'The worker processing this request stopped responding ${MAX_ATTEMPTS} times (its lease expired each time), so it was not retried again.'`,
  },
  onClaim: () => `status = 'processing', started_at = coalesce(r.started_at, clock_timestamp())`,
  returning: 'r.id, r.workspace_id, r.topic_id, r.session_id, r.seq, r.prompt, r.model, r.summarize, r.attempts',
});

const queue = () => topicRequests(config().TOPIC_QUEUE_CONCURRENCY);

/**
 * Claims the workspace's next request for `owner`, or null when there is none or the workspace is at
 * its concurrency. Requests past their attempts are failed on the way.
 */
export async function claimNext(workspaceId: string, owner: string, leaseSeconds = LEASE_SECONDS): Promise<ClaimedRequest | null> {
  const rows = await claim<ClaimedRequest>(await getDb(), queue(), { owner, worker: processWorkerId(), leaseSeconds, scope: workspaceId });
  const claimed = rows.find((row) => !row.exhausted);
  if (!claimed) return null;
  const { exhausted: _, ...request } = claimed;
  return request;
}

export interface Processed {
  requestId: string;
  status: 'completed' | 'failed';
  /** The workspace has more unfinished requests. */
  more: boolean;
}

/** Claims the workspace's next request, runs it and records the outcome; null when nothing was claimable. */
export async function processNext(workspaceId: string): Promise<Processed | null> {
  const owner = randomUUID();
  const request = await claimNext(workspaceId, owner);
  if (!request) return null;
  // A long model call must not look like a dead worker.
  const heartbeat = setInterval(() => void renewLease(request.id, owner), (LEASE_SECONDS * 1000) / 3);
  heartbeat.unref();
  try {
    const status = await run(request, owner);
    return { requestId: request.id, status, more: await hasUnfinished(workspaceId) };
  } catch (error) {
    // Hand the request back at once instead of after the lease: the retry of this step claims it again.
    await release(await getDb(), queue(), { owner, ids: [request.id] }).catch(() => {});
    throw error;
  } finally {
    clearInterval(heartbeat);
  }
}

interface Context {
  topic_name: string;
  system_prompt: string;
  topic_model: string | null;
  time_zone: string;
  backend: string | null;
  backend_session_id: string | null;
}

async function run(request: ClaimedRequest, owner: string): Promise<'completed' | 'failed'> {
  // Read everything first, in one short transaction: none is held across the model calls.
  const { context, history } = await asService(async (tx) => {
    const [context] = await tx.query<Context>(
      `select t.name as topic_name, t.system_prompt, t.model as topic_model, w.time_zone, s.backend, s.backend_session_id
         from public.topics t
         join public.workspaces w on w.id = t.workspace_id
         join public.topic_sessions s on s.id = $2 and s.workspace_id = t.workspace_id
        where t.workspace_id = $1 and t.id = $3`,
      [request.workspace_id, request.session_id, request.topic_id],
    );
    const history = await tx.query<Exchange>(
      `select prompt, result from public.topic_requests
        where workspace_id = $1 and session_id = $2 and seq < $3 and status = 'completed'
        order by seq`,
      [request.workspace_id, request.session_id, request.seq],
    );
    return { context: context!, history };
  });

  const model = resolveModel(request.model, context.topic_model);
  const outcome = await answer({
    workspaceId: request.workspace_id,
    topicName: context.topic_name,
    systemPrompt: context.system_prompt,
    prompt: request.prompt,
    model,
    history,
    resume: context.backend && context.backend_session_id ? { backend: context.backend, sessionId: context.backend_session_id } : undefined,
  });

  let summaryLine: string | null = null;
  if (outcome.ok && request.summarize) {
    const summary = await summarizeExchange(request.workspace_id, context.topic_name, model, { prompt: request.prompt, result: outcome.text });
    // The answer stands without its summary line; the topic's notes just miss this exchange.
    if (summary.ok) summaryLine = `[${localDate(context.time_zone)}] ${summary.text.replace(/\s+/g, ' ').trim()}`;
    else log('warn', 'topic summary failed', { requestId: request.id, error: summary.error });
  }
  await finish(request, owner, outcome, summaryLine);
  return outcome.ok ? 'completed' : 'failed';
}

/** Records the outcome only while `owner` still holds the lease: a worker that lost it changes nothing. */
async function finish(request: ClaimedRequest, owner: string, outcome: Outcome, summaryLine: string | null) {
  await asService(async (tx) => {
    const [updated] = await finishLease(tx, queue(), {
      owner,
      rows: [
        {
          id: request.id,
          status: outcome.ok ? 'completed' : 'failed',
          result: outcome.ok ? outcome.text : null,
          error: outcome.ok ? null : outcome.error,
          resolved_model: outcome.model || null,
          backend: outcome.backend,
        },
      ],
      types: { status: 'text', result: 'text', error: 'text', resolved_model: 'text', backend: 'text' },
      set: (_r, v) => `status = ${v}.status, result = ${v}.result, error = ${v}.error, resolved_model = ${v}.resolved_model, backend = ${v}.backend, completed_at = now()`,
    });
    if (!updated) {
      log('warn', 'topic request lease lost before it finished', { requestId: request.id });
      return;
    }
    if (summaryLine) await appendSummary(tx, request, summaryLine);
    if (outcome.ok && outcome.backendSessionId) {
      await tx.query(`update public.topic_sessions set backend = $2, backend_session_id = $3 where id = $1`, [
        request.session_id,
        outcome.backend,
        outcome.backendSessionId,
      ]);
    }
  });
}

function appendSummary(tx: Tx, request: ClaimedRequest, line: string) {
  return tx.query(
    `update public.topics set summary = case when summary = '' then $3 else summary || E'\\n' || $3 end
      where workspace_id = $1 and id = $2`,
    [request.workspace_id, request.topic_id, line],
  );
}

function renewLease(requestId: string, owner: string) {
  return asService((tx) => renew(tx, queue(), { owner, ids: [requestId], leaseSeconds: LEASE_SECONDS })).catch((error) =>
    log('warn', 'topic request lease not renewed', { requestId, error }),
  );
}

async function hasUnfinished(workspaceId: string): Promise<boolean> {
  const [row] = await asService((tx) =>
    tx.query<{ any: boolean }>(`select exists (select 1 from public.topic_requests where workspace_id = $1 and status in ('pending', 'processing')) as any`, [
      workspaceId,
    ]),
  );
  return row!.any;
}

/**
 * Workspaces whose queue may be stuck: pending work and nothing running, or a request whose worker died
 * (its lease ran out or its process is known dead). Woken by the periodic sweep; a wake that finds nothing to do costs one query.
 */
export async function stalledWorkspaces(): Promise<string[]> {
  const rows = await asService((tx) =>
    tx.query<{ workspace_id: string }>(
      `select distinct q.workspace_id from public.topic_requests q
        where (q.status = 'processing' and ${leaseFree('q')})
           or (q.status = 'pending' and not exists (
                 select 1 from public.topic_requests p where p.workspace_id = q.workspace_id and ${held(queue(), 'p')}))`,
    ),
  );
  return rows.map((r) => r.workspace_id);
}

/** The `[YYYY-MM-DD]` of summary lines, in the workspace's time zone. */
function localDate(timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
}

/** The workspace's concurrency: its own setting, else TOPIC_QUEUE_CONCURRENCY. */
export async function queueConcurrency(caller: Caller): Promise<{ concurrency: number; isDefault: boolean }> {
  const [row] = await inWorkspace(caller, (tx) =>
    tx.query<{ concurrency: number }>(`select concurrency from public.topic_queue_settings where workspace_id = $1`, [caller.workspaceId]),
  );
  return row ? { concurrency: row.concurrency, isDefault: false } : { concurrency: config().TOPIC_QUEUE_CONCURRENCY, isDefault: true };
}

/** Admins only (RLS): how many of the workspace's requests run at once, 1–10. */
export async function setQueueConcurrency(caller: Caller, concurrency: number): Promise<void> {
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 10) {
    throw invalidField('concurrency', 'api.topics.concurrency', undefined, 'api.topics.concurrencyShort');
  }
  const [row] = await inWorkspace(caller, (tx) =>
    tx.query(
      `insert into public.topic_queue_settings (workspace_id, concurrency) values ($1, $2)
       on conflict (workspace_id) do update set concurrency = excluded.concurrency returning workspace_id`,
      [caller.workspaceId, concurrency],
    ),
  );
  if (!row) throw managersOnly('changeQueue');
}
