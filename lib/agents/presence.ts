import { asService } from '@/lib/db';

/**
 * Records that one connection of the agent is alive (the gateway's registry reads these rows).
 * Connections silent for a day are dropped by the hourly cleanup, so the table stays as small as
 * the live set.
 */
export async function recordHeartbeat(agentId: string, connectionId: string): Promise<{ lastHeartbeatAt: Date }> {
  const [row] = await asService((tx) =>
    tx.query<{ last_heartbeat_at: Date }>(
      `insert into private.agent_connections (agent_id, connection_id) values ($1, $2)
       on conflict (agent_id, connection_id) do update set last_heartbeat_at = now()
       returning last_heartbeat_at`,
      [agentId, connectionId],
    ),
  );
  return { lastHeartbeatAt: row!.last_heartbeat_at };
}
