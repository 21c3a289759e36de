import { asService } from '@/lib/db';
import { defineFunction } from '../define';

/** Hourly housekeeping of rows nothing will read again. */
export const cleanupExpired = defineFunction({ id: 'cleanup-expired', triggers: [{ cron: '0 * * * *' }] }, async ({ step }) => {
  // Windows carry no length; no limit uses a window longer than a day, so older ones are over.
  const rateLimitWindows = await step.run('delete-rate-limit-windows', () =>
    deleteRows(`delete from private.rate_limit_counters where window_start < now() - interval '1 day'`),
  );
  // Only expired tokens: a revoked one that has not expired yet still detects reuse of a stolen token.
  const refreshTokens = await step.run('delete-refresh-tokens', () =>
    deleteRows('delete from private.refresh_tokens where expires_at < now()'),
  );
  // The local executor's history (empty with Inngest Cloud).
  const executorRuns = await step.run('delete-finished-runs', () =>
    deleteRows(`delete from private.executor_runs where finished_at < now() - interval '30 days'`),
  );
  const executorEvents = await step.run('delete-dispatched-events', () =>
    deleteRows(
      `delete from private.executor_events e where dispatched_at < now() - interval '30 days'
         and not exists (select 1 from private.executor_runs r where r.event_id = e.id)`,
    ),
  );
  // Hosted runners' host tokens, an hour after they expired: by then no session made from one is
  // still valid (sessions last 15 minutes), and the supervisor has long renewed its own.
  const hostTokens = await step.run('delete-host-tokens', () =>
    deleteRows(`delete from private.agent_api_keys where kind = 'host' and expires_at < now() - interval '1 hour'`),
  );
  // Agent connections silent for a day: gone for good (a bridge that comes back is a new connection).
  const agentConnections = await step.run('delete-agent-connections', () =>
    deleteRows(`delete from private.agent_connections where last_heartbeat_at < now() - interval '1 day'`),
  );
  return { rateLimitWindows, refreshTokens, executorRuns, executorEvents, hostTokens, agentConnections };
});

async function deleteRows(statement: string): Promise<number> {
  const rows = await asService((tx) => tx.query(`with deleted as (${statement} returning 1) select count(*) as n from deleted`));
  return Number(rows[0]?.n ?? 0);
}
