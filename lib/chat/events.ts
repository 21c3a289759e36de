import { agentSessionStands, type AgentSession } from '@/lib/agents';
import { notFound } from '@/lib/api';
import { withUser, type SessionUser } from '@/lib/db';
import { log } from '@/lib/log';
import { sseResponse, subscribe, type RealtimeEvent } from '@/lib/realtime';
import { getWorkspace } from '@/lib/workspaces';

/** How long a subscriber trusts its last "may read this conversation" answer. */
const VISIBILITY_TTL_MS = 30_000;

/**
 * A person's live stream of one workspace: `message` and `conversation` events (ids only) for the
 * conversations they can read, as RLS decides. The browser refetches what changed through the API.
 * When the workspace's membership changes (`members`), the stream checks that its person still
 * belongs and ends at once if not: nothing announced after their removal reaches them.
 */
export async function streamWorkspaceEvents(user: SessionUser, workspaceId: string, signal: AbortSignal): Promise<Response> {
  if (!(await getWorkspace(user, workspaceId))) throw notFound('workspace');
  return sseResponse(signal, async (send, close) => {
    const visible = new Map<string, { ok: boolean; at: number }>();
    const canRead = async (conversationId: string) => {
      const cached = visible.get(conversationId);
      if (cached && Date.now() - cached.at < VISIBILITY_TTL_MS) return cached.ok;
      const rows = await withUser(user, (tx) => tx.query(`select 1 from public.conversations where id = $1`, [conversationId]));
      visible.set(conversationId, { ok: rows.length > 0, at: Date.now() });
      return rows.length > 0;
    };
    // One check at a time, so events leave in the order they arrived (and a removal is acted on
    // before any message announced after it).
    let chain = Promise.resolve();
    const onEvent = (event: RealtimeEvent) => {
      if (!('workspaceId' in event) || event.workspaceId !== workspaceId) return;
      // Membership or status changed: decide again.
      if (event.type === 'conversation') visible.delete(event.conversationId);
      chain = chain
        .then(async () => {
          if (event.type !== 'members') {
            if (await canRead(event.conversationId)) send(event.type, event);
          } else if (await getWorkspace(user, workspaceId)) {
            visible.clear();
          } else {
            close();
          }
        })
        .catch((error) => {
          log('warn', 'events: visibility check failed', { error });
          // Unsure whether they still belong: end the stream; reconnecting checks them anew.
          if (event.type === 'members') close();
        });
    };
    const unsubscribe = await subscribe(onEvent);
    send('ready', { workspaceId });
    return unsubscribe;
  });
}

/**
 * An agent connection's stream: `ready` once connected and `deliveries` whenever new work is queued
 * for it. Either way the connection then claims — the same query whether it was live or catching up
 * after being away. The stream ends when the session token expires, or at once when the key or host
 * token it was made from is revoked (`credentials`).
 */
export async function streamAgentEvents(session: AgentSession, signal: AbortSignal): Promise<Response> {
  const { agentId } = session;
  return sseResponse(
    signal,
    async (send, close) => {
      // In order, so no `deliveries` leaves after a revocation that came before it.
      let chain = Promise.resolve();
      const unsubscribe = await subscribe((event) => {
        if (!('agentId' in event) || event.agentId !== agentId) return;
        chain = chain
          .then(async () => {
            if (event.type === 'deliveries') send('deliveries', { agentId });
            else if (!(await agentSessionStands(session))) close();
          })
          .catch((error) => {
            log('warn', 'events: agent session check failed', { error });
            close();
          });
      });
      send('ready', { agentId });
      return unsubscribe;
    },
    session.expiresAt,
  );
}
