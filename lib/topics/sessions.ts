import { isUuid, notFound, serializeSnake } from '@/lib/api';
import { inWorkspace, type Caller } from './auth';
import { REQUEST_COLUMNS, SESSION_COLUMNS, type RequestRow, type RequestWire, type SessionRow, type SessionWire } from './wire';

const sessionNotFound = () => notFound('theSession');
const SESSIONS_LISTED = 500;

/** The contract lists active sessions with their request counts; most recently used first. */
export async function listSessions(caller: Caller, query: { topic_id?: string; include_closed: boolean }): Promise<SessionWire[]> {
  if (query.topic_id !== undefined && !isUuid(query.topic_id)) return [];
  const rows = await inWorkspace(caller, (tx) =>
    tx.query<SessionRow>(
      `select * from (
         select ${SESSION_COLUMNS} from public.topic_sessions s
          where s.workspace_id = $1 and ($2::uuid is null or s.topic_id = $2) and ($3 or s.closed_at is null)
       ) x
       order by coalesce(x.last_request_at, x.created_at) desc, x.id
       limit ${SESSIONS_LISTED}`,
      [caller.workspaceId, query.topic_id ?? null, query.include_closed],
    ),
  );
  return rows.map((row) => serializeSnake(row));
}

/** Closes a session: its requests stay (pending ones still run), new ones are refused. Closing twice is fine. */
export async function closeSession(caller: Caller, id: string): Promise<SessionWire> {
  if (!isUuid(id)) throw sessionNotFound();
  const [row] = await inWorkspace(caller, async (tx) => {
    const [closed] = await tx.query(`update public.topic_sessions set closed_at = coalesce(closed_at, now()) where workspace_id = $1 and id = $2 returning id`, [
      caller.workspaceId,
      id,
    ]);
    if (!closed) return [];
    return tx.query<SessionRow>(`select ${SESSION_COLUMNS} from public.topic_sessions s where s.workspace_id = $1 and s.id = $2`, [caller.workspaceId, id]);
  });
  if (!row) throw sessionNotFound();
  return serializeSnake(row);
}

/** A session and its requests in order: the conversation view of the app. */
export async function getSession(caller: Caller, id: string): Promise<{ session: SessionWire; requests: RequestWire[] }> {
  if (!isUuid(id)) throw sessionNotFound();
  const { session, requests } = await inWorkspace(caller, async (tx) => {
    const [session] = await tx.query<SessionRow>(`select ${SESSION_COLUMNS} from public.topic_sessions s where s.workspace_id = $1 and s.id = $2`, [caller.workspaceId, id]);
    const requests = session
      ? await tx.query<RequestRow>(`select ${REQUEST_COLUMNS} from public.topic_requests r where r.workspace_id = $1 and r.session_id = $2 order by r.seq`, [
          caller.workspaceId,
          id,
        ])
      : [];
    return { session, requests };
  });
  if (!session) throw sessionNotFound();
  return { session: serializeSnake(session), requests: requests.map((r) => serializeSnake(r)) };
}
