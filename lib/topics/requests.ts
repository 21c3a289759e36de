import { randomUUID } from 'node:crypto';
import { ApiError, conflict, isUuid, notFound, serializeSnake } from '@/lib/api';
import { sha256 } from '@/lib/auth';
import { elevated, type Tx } from '@/lib/db';
import { sendEvent } from '@/lib/events';
import { inWorkspace, type Caller } from './auth';
import { type ListRequestsQuery, type SubmitRequestInput } from './schemas';
import { waitForRequest } from './wait';
import { REQUEST_COLUMNS, type RequestRow, type RequestWire, type SubmittedWire } from './wire';

const requestNotFound = () => notFound('theRequest');
const FINISHED = new Set(['completed', 'failed']);

export interface Submitted {
  request: SubmittedWire;
  /** An earlier submit with the same Idempotency-Key and body: nothing new was queued. */
  replayed: boolean;
}

/**
 * Queues a request (status pending) and wakes the workspace's worker in the same transaction, so the
 * wake exists exactly when the request does. Without a session_id the request starts a new session,
 * whose id the response carries; with one, it continues that session.
 */
export async function submitRequest(caller: Caller, input: SubmitRequestInput, idempotencyKey?: string): Promise<Submitted> {
  const hash = sha256(JSON.stringify([input.prompt, input.topic_id, input.session_id, input.model, input.summarize]));
  try {
    return await inWorkspace(caller, async (tx) => {
      if (idempotencyKey) {
        const earlier = await findIdempotent(tx, caller.workspaceId, idempotencyKey);
        if (earlier) {
          if (earlier.request_hash !== hash) {
            throw new ApiError('validation_failed', 'api.topics.idempotencyReused');
          }
          return { request: submitted(earlier), replayed: true };
        }
      }
      if (!isUuid(input.topic_id)) throw notFound('theTopic');
      // An unknown topic fails the foreign keys below (23503, answered 404): no lookup of its own.
      const sessionId = input.session_id ? await continuedSession(tx, caller.workspaceId, input.topic_id, input.session_id) : randomUUID();
      if (!input.session_id) {
        await tx.query(`insert into public.topic_sessions (id, workspace_id, topic_id) values ($1, $2, $3)`, [sessionId, caller.workspaceId, input.topic_id]);
      }
      // A key's submits remember the key; a member's remember the member (members may not set api_key_id).
      const [submitter, submitterId] = caller.kind === 'key' ? ['api_key_id', caller.keyId] : ['submitted_by', caller.user.id];
      const [row] = await tx.query<SubmittedRow>(
        `insert into public.topic_requests (id, workspace_id, topic_id, session_id, prompt, model, summarize, idempotency_key, request_hash, ${submitter})
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
         returning id, session_id, status, created_at, request_hash`,
        [randomUUID(), caller.workspaceId, input.topic_id, sessionId, input.prompt, input.model, input.summarize, idempotencyKey ?? null, hash, submitterId],
      );
      await sendEvent({ name: 'topics/queue.wake', data: { workspaceId: caller.workspaceId } }, tx);
      return { request: submitted(row!), replayed: false };
    });
  } catch (error) {
    // No such topic in this workspace, or it was deleted while this submit waited for it (see deleteTopic).
    if ((error as { code?: string })?.code === '23503') throw notFound('theTopic');
    throw error;
  }
}

interface SubmittedRow {
  id: string;
  session_id: string;
  status: SubmittedWire['status'];
  created_at: Date;
  request_hash: string;
}

const submitted = (row: SubmittedRow): SubmittedWire => serializeSnake({ id: row.id, session_id: row.session_id, status: row.status, created_at: row.created_at });

/** The request an Idempotency-Key named in the last 24 hours. Older uses free the key for a new request. */
async function findIdempotent(tx: Tx, workspaceId: string, key: string): Promise<SubmittedRow | undefined> {
  // Two submits with the same key take turns: the second sees the first's request.
  await tx.query(`select pg_advisory_xact_lock(hashtextextended('topic-idempotency:' || $1 || ':' || $2, 0))`, [workspaceId, key]);
  const [row] = await tx.query<SubmittedRow & { expired: boolean }>(
    `select id, session_id, status, created_at, request_hash, created_at <= now() - interval '24 hours' as expired
       from public.topic_requests where workspace_id = $1 and idempotency_key = $2`,
    [workspaceId, key],
  );
  if (!row?.expired) return row;
  // Members may not update requests: forgetting the expired key of the request just read (as the caller) is the service's.
  await elevated(tx, (service) => service.query(`update public.topic_requests set idempotency_key = null where id = $1`, [row.id]));
  return undefined;
}

/** The session a request continues: it must exist, belong to the topic and still be open. */
async function continuedSession(tx: Tx, workspaceId: string, topicId: string, sessionId: string): Promise<string> {
  if (!isUuid(sessionId)) throw notFound('theSession');
  // Shared lock: a concurrent close waits for this submit, or this submit sees the close.
  const [session] = await tx.query<{ topic_id: string; closed_at: Date | null }>(
    `select topic_id, closed_at from public.topic_sessions where workspace_id = $1 and id = $2 for share`,
    [workspaceId, sessionId],
  );
  if (!session) throw notFound('theSession');
  if (session.topic_id !== topicId) {
    const [topic] = await tx.query(`select 1 from public.topics where workspace_id = $1 and id = $2`, [workspaceId, topicId]);
    if (!topic) throw notFound('theTopic');
    throw new ApiError('validation_failed', 'api.topics.sessionOfOtherTopic');
  }
  if (session.closed_at) throw conflict('api.topics.sessionClosed');
  return sessionId;
}

/** A request; with `waitSeconds`, waits up to that long for an unfinished one to finish first. */
export async function getRequest(caller: Caller, id: string, waitSeconds = 0, signal?: AbortSignal): Promise<RequestWire> {
  if (!isUuid(id)) throw requestNotFound();
  const read = async () => {
    const [row] = await inWorkspace(caller, (tx) =>
      tx.query<RequestRow>(`select ${REQUEST_COLUMNS} from public.topic_requests r where r.workspace_id = $1 and r.id = $2`, [caller.workspaceId, id]),
    );
    if (!row) throw requestNotFound();
    return serializeSnake(row);
  };
  const request = await read();
  if (waitSeconds <= 0 || FINISHED.has(request.status)) return request;
  await waitForRequest(id, waitSeconds * 1000, async () => FINISHED.has((await read()).status), signal);
  return read();
}

export async function listRequests(caller: Caller, query: ListRequestsQuery): Promise<RequestWire[]> {
  // An id that cannot exist matches nothing, as a filter should.
  for (const value of [query.topic_id, query.session_id]) if (value !== undefined && !isUuid(value)) return [];
  const rows = await inWorkspace(caller, (tx) =>
    tx.query<RequestRow>(
      `select ${REQUEST_COLUMNS} from public.topic_requests r
        where r.workspace_id = $1
          and ($2::text is null or r.status = $2)
          and ($3::uuid is null or r.topic_id = $3)
          and ($4::uuid is null or r.session_id = $4)
        order by r.seq desc
        limit $5`,
      [caller.workspaceId, query.status ?? null, query.topic_id ?? null, query.session_id ?? null, query.limit],
    ),
  );
  return rows.map((row) => serializeSnake(row));
}

/** Only pending requests can be withdrawn: one in processing is already with the model. */
export async function deleteRequest(caller: Caller, id: string): Promise<{ id: string; deleted: true }> {
  if (!isUuid(id)) throw requestNotFound();
  await inWorkspace(caller, async (tx) => {
    const [deleted] = await tx.query(`delete from public.topic_requests where workspace_id = $1 and id = $2 and status = 'pending' returning id`, [
      caller.workspaceId,
      id,
    ]);
    if (deleted) return;
    const [row] = await tx.query<{ status: 'processing' | 'completed' | 'failed' }>(`select status from public.topic_requests where workspace_id = $1 and id = $2`, [caller.workspaceId, id]);
    if (!row) throw requestNotFound();
    throw conflict(`api.topics.notPending.${row.status}`);
  });
  return { id, deleted: true };
}

/** The Idempotency-Key header of a submit (IETF draft): absent, or 1–255 characters. */
export function idempotencyKeyOf(req: Request): string | undefined {
  const key = req.headers.get('idempotency-key')?.trim();
  if (key === undefined || key === '') return undefined;
  if (key.length > 255) throw new ApiError('validation_failed', 'api.topics.idempotencyTooLong');
  return key;
}
