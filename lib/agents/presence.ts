import { asService } from '@/lib/db';

/**
 * Records that one connection of the agent is alive (the gateway's registry reads these rows). Rows
 * of connections silent for a day are dropped here, so the table stays as small as the live set.
 */
export async function recordHeartbeat(agentId: string, connectionId: string): Promise<{ lastHeartbeatAt: Date }> {
  return asService(async (tx) => {
    await tx.query(`delete from private.agent_connections where agent_id = $1 and last_heartbeat_at < now() - interval '1 day'`, [agentId]);
    const [row] = await tx.query<{ last_heartbeat_at: Date }>(
      `insert into private.agent_connections (agent_id, connection_id) values ($1, $2)
       on conflict (agent_id, connection_id) do update set last_heartbeat_at = now()
       returning last_heartbeat_at`,
      [agentId, connectionId],
    );
    return { lastHeartbeatAt: row!.last_heartbeat_at };
  });
}
