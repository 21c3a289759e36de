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
 */
export async function streamWorkspaceEvents(user: SessionUser, workspaceId: string, signal: AbortSignal): Promise<Response> {
  if (!(await getWorkspace(user, workspaceId))) throw notFound('This workspace');
  return sseResponse(signal, async (send) => {
    const visible = new Map<string, { ok: boolean; at: number }>();
    const canRead = async (conversationId: string) => {
      const cached = visible.get(conversationId);
      if (cached && Date.now() - cached.at < VISIBILITY_TTL_MS) return cached.ok;
      const rows = await withUser(user, (tx) => tx.query(`select 1 from public.conversations where id = $1`, [conversationId]));
      visible.set(conversationId, { ok: rows.length > 0, at: Date.now() });
      return rows.length > 0;
    };
    // One check at a time, so events leave in the order they arrived.
    let chain = Promise.resolve();
    const onEvent = (event: RealtimeEvent) => {
      if (event.type === 'deliveries' || event.workspaceId !== workspaceId) return;
      // Membership or status changed: decide again.
      if (event.type === 'conversation') visible.delete(event.conversationId);
      chain = chain
        .then(async () => {
          if (await canRead(event.conversationId)) send(event.type, event);
        })
        .catch((error) => log('warn', 'events: visibility check failed', { error }));
    };
    const unsubscribe = await subscribe(onEvent);
    send('ready', { workspaceId });
    return unsubscribe;
  });
}

/**
 * An agent connection's stream: `ready` once connected and `deliveries` whenever new work is queued
 * for it. Either way the connection then claims — the same query whether it was live or catching up
 * after being away. The stream ends when the session token expires.
 */
export async function streamAgentEvents(agentId: string, expiresAt: Date, signal: AbortSignal): Promise<Response> {
  return sseResponse(
    signal,
    async (send) => {
      const unsubscribe = await subscribe((event) => {
        if (event.type === 'deliveries' && event.agentId === agentId) send('deliveries', { agentId });
      });
      send('ready', { agentId });
      return unsubscribe;
    },
    expiresAt,
  );
}
