import { randomUUID } from 'node:crypto';
import { invalidField, managersOnly } from '@/lib/api';
import { config } from '@/lib/config';
import { asService, type Tx } from '@/lib/db';
import { log } from '@/lib/log';
import { inWorkspace, type Caller } from './auth';
import { answer, resolveModel, summarizeExchange, type Exchange, type Outcome } from './execute';

/**
 * The topic queue's worker side. Each workspace's requests run oldest first, at most `concurrency` at a
 * time (default 1), each under a lease the worker renews while it works. A worker that dies leaves its
 * lease to expire; the next claim takes the request again, and a request claimed more than
 * MAX_ATTEMPTS times fails with a clear error instead of running again.
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

// The one claim pattern. Claimable: pending, or processing under an expired lease (its worker died).
// A request waits while an earlier one of its session is unfinished (the later one needs its answer as
// history), and nothing is claimed while the workspace already runs `concurrency` requests under live
// leases. Postgres locks the row the inner select returns, skipping rows another transaction holds.
const CLAIM_SQL = `
update public.topic_requests r
   set status = 'processing', lease_owner = $2, lease_expires_at = now() + make_interval(secs => $3),
       attempts = r.attempts + 1, started_at = coalesce(r.started_at, clock_timestamp())
 where r.id = (
   select c.id from public.topic_requests c
    where c.workspace_id = $1
      and (c.status = 'pending' or (c.status = 'processing' and c.lease_expires_at <= now()))
      and c.seq = (select min(e.seq) from public.topic_requests e
                    where e.session_id = c.session_id and e.status in ('pending', 'processing'))
      and (select count(*) from public.topic_requests p
            where p.workspace_id = $1 and p.status = 'processing' and p.lease_expires_at > now())
          < coalesce((select s.concurrency from public.topic_queue_settings s where s.workspace_id = $1), $4)
    order by c.seq
    limit 1
    for update skip locked)
returning r.id, r.workspace_id, r.topic_id, r.session_id, r.seq, r.prompt, r.model, r.summarize, r.attempts`;

/**
 * Claims the workspace's next request for `owner`, or null when there is none or the workspace is at
 * its concurrency. Requests past their attempts are failed on the way.
 */
export async function claimNext(workspaceId: string, owner: string, leaseSeconds = LEASE_SECONDS): Promise<ClaimedRequest | null> {
  return asService(async (tx) => {
    // Claims of one workspace take turns, so the in-flight count above cannot miss a concurrent claim.
    await tx.query(`select pg_advisory_xact_lock(hashtextextended('topic-queue:' || $1, 0))`, [workspaceId]);
    for (;;) {
      const [claimed] = await tx.query<ClaimedRequest>(CLAIM_SQL, [workspaceId, owner, leaseSeconds, config().TOPIC_QUEUE_CONCURRENCY]);
      if (!claimed || claimed.attempts <= MAX_ATTEMPTS) return claimed ?? null;
      await tx.query(
        `update public.topic_requests
            set status = 'failed', completed_at = now(), lease_owner = null, lease_expires_at = null,
                error = $2
          where id = $1`,
        [
          claimed.id,
          `The worker processing this request stopped responding ${MAX_ATTEMPTS} times (its lease expired each time), so it was not retried again.`,
        ],
      );
    }
  });
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
    await asService((tx) =>
      tx.query(`update public.topic_requests set lease_expires_at = now() where id = $1 and lease_owner = $2 and status = 'processing'`, [request.id, owner]),
    ).catch(() => {});
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
    const [updated] = await tx.query(
      `update public.topic_requests
          set status = $3, result = $4, error = $5, resolved_model = $6, backend = $7,
              completed_at = now(), lease_owner = null, lease_expires_at = null
        where id = $1 and lease_owner = $2 and status = 'processing'
        returning id`,
      [request.id, owner, outcome.ok ? 'completed' : 'failed', outcome.ok ? outcome.text : null, outcome.ok ? null : outcome.error, outcome.model || null, outcome.backend],
    );
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
  return asService((tx) =>
    tx.query(
      `update public.topic_requests set lease_expires_at = now() + make_interval(secs => $3)
        where id = $1 and lease_owner = $2 and status = 'processing'`,
      [requestId, owner, LEASE_SECONDS],
    ),
  ).catch((error) => log('warn', 'topic request lease not renewed', { requestId, error }));
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
 * (expired lease). Woken by the periodic sweep; a wake that finds nothing to do costs one query.
 */
export async function stalledWorkspaces(): Promise<string[]> {
  const rows = await asService((tx) =>
    tx.query<{ workspace_id: string }>(
      `select distinct q.workspace_id from public.topic_requests q
        where (q.status = 'processing' and q.lease_expires_at <= now())
           or (q.status = 'pending' and not exists (
                 select 1 from public.topic_requests p
                  where p.workspace_id = q.workspace_id and p.status = 'processing' and p.lease_expires_at > now()))`,
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
    throw invalidField('concurrency', 'Choose between 1 and 10 requests at once.', 'Choose between 1 and 10');
  }
  const [row] = await inWorkspace(caller, (tx) =>
    tx.query(
      `insert into public.topic_queue_settings (workspace_id, concurrency) values ($1, $2)
       on conflict (workspace_id) do update set concurrency = excluded.concurrency returning workspace_id`,
      [caller.workspaceId, concurrency],
    ),
  );
  if (!row) throw managersOnly('change the queue');
}
