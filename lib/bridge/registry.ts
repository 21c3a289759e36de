import { ONLINE_WINDOW_SECONDS, type Agent } from '@/lib/agents';
import { asService } from '@/lib/db';

/**
 * The gateway registry: which agents are connected, read from their connections' heartbeats
 * (`private.agent_connections`, written by `recordHeartbeat`). A connection silent for
 * ONLINE_WINDOW_SECONDS (3 minutes) no longer counts: the agent shows offline. Postgres is the
 * registry, so every app process sees the same one.
 */

export interface GatewayEntry {
  agentId: string;
  name: string;
  runtime: Agent['runtime'];
  online: boolean;
  lastHeartbeatAt: Date;
  connections: { connectionId: string; connectedAt: Date; lastHeartbeatAt: Date; online: boolean }[];
}

/** Every agent heard from in the last day, with its connections (most recent first). */
export async function gatewayRegistry(): Promise<GatewayEntry[]> {
  const rows = await asService((tx) =>
    tx.query<{ agent_id: string; name: string; runtime: Agent['runtime']; connection_id: string; connected_at: Date; last_heartbeat_at: Date; online: boolean }>(
      `select k.agent_id, a.name, a.runtime, k.connection_id, k.connected_at, k.last_heartbeat_at,
              k.last_heartbeat_at > now() - make_interval(secs => $1) as online
         from private.agent_connections k join private.agents a on a.id = k.agent_id
        order by a.name, k.agent_id, k.last_heartbeat_at desc`,
      [ONLINE_WINDOW_SECONDS],
    ),
  );
  const byAgent = new Map<string, GatewayEntry>();
  for (const r of rows) {
    const entry = byAgent.get(r.agent_id) ?? { agentId: r.agent_id, name: r.name, runtime: r.runtime, online: false, lastHeartbeatAt: r.last_heartbeat_at, connections: [] };
    entry.connections.push({ connectionId: r.connection_id, connectedAt: r.connected_at, lastHeartbeatAt: r.last_heartbeat_at, online: r.online });
    entry.online ||= r.online;
    byAgent.set(r.agent_id, entry);
  }
  return [...byAgent.values()];
}

/**
 * Whether this connection has sent a heartbeat: the agent is reachable through it. Connection ids
 * are new for every bridge started, so a row means this very connection spoke.
 */
export async function heardFrom(agentId: string, connectionId: string): Promise<boolean> {
  const [row] = await asService((tx) =>
    tx.query(`select 1 from private.agent_connections where agent_id = $1 and connection_id = $2 and last_heartbeat_at > now() - make_interval(secs => $3)`, [
      agentId,
      connectionId,
      ONLINE_WINDOW_SECONDS,
    ]),
  );
  return Boolean(row);
}

/** Forgets a connection that stopped on purpose, so the agent shows offline now rather than in 3 minutes. */
export async function forgetConnection(agentId: string, connectionId: string): Promise<void> {
  await asService((tx) => tx.query(`delete from private.agent_connections where agent_id = $1 and connection_id = $2`, [agentId, connectionId]));
}

/** The agents whose turns Multiverbe runs itself, oldest first (the order a host brings them up). */
export async function hostedAgentIds(): Promise<string[]> {
  const rows = await asService((tx) => tx.query<{ id: string }>(`select id from private.agents where runtime = 'hosted' order by created_at, id`));
  return rows.map((r) => r.id);
}

export async function isHosted(agentId: string): Promise<boolean> {
  const [row] = await asService((tx) => tx.query(`select 1 from private.agents where id = $1 and runtime = 'hosted'`, [agentId]));
  return Boolean(row);
}
