import type { RunPolicy } from '@/lib/agent';
import { notFound } from '@/lib/api';
import { authorizeWrite } from '@/lib/autonomy';
import { workspaceHasConnection } from '@/lib/connections';
import { getDb } from '@/lib/db';

/**
 * The runtime policy of the app's runs, in one place: every run the app makes for a workspace (a topic
 * request and its summaries, the daily analysis) passes `workspacePolicy` to `runAgent`. Bridges (hosted or
 * on a laptop) have no app database: they read the same names through the agent API
 * (`knownNamesForAgent`) and propose every write (lib/bridge/turn.ts).
 *
 * - Names: the workspace's customers, leads and staff, and its members as the chat shows them (display name,
 *   else the part of the email before the @). The person a run answers is passed as `speaker` by the caller.
 * - Writes: the autonomy gate (lib/autonomy's `authorizeWrite`).
 * - Connections: the workspace's connected accounts (lib/connections); a tool that needs one it lacks (the
 *   Gmail, Calendar and GitHub tools) is left out of the run.
 */
export const workspacePolicy: RunPolicy = { knownNames: workspaceNames, authorizeWrite, connections: workspaceHasConnection };

/** Every name the workspace's runs alias, each once. */
export async function workspaceNames(workspaceId: string): Promise<string[]> {
  // One statement returning one value (trusted, as service): it runs before every model call of the
  // workspace, and 10,000 names as rows cost several times more to read than as one string. A name with a
  // line break in it comes back as its lines, each hidden on its own.
  const [row] = await (await getDb()).query<{ names: string | null }>(
    `select string_agg(name, E'\\n') as names from (
       select name from public.customers where workspace_id = $1
       union all select name from public.leads where workspace_id = $1
       union all select name from public.staff where workspace_id = $1
       union all select coalesce(nullif(p.display_name, ''), split_part(p.email, '@', 1))
                   from public.workspace_members m join public.profiles p on p.user_id = m.user_id
                  where m.workspace_id = $1) known`,
    [workspaceId],
  );
  return row?.names ? [...new Set(row.names.split('\n'))] : [];
}

/** The names of a workspace the agent appears in (`workspace_agents`); any other does not exist for it. */
export async function knownNamesForAgent(agentId: string, workspaceId: string): Promise<string[]> {
  const [visible] = await (await getDb()).query(`select 1 from public.workspace_agents where workspace_id = $1 and agent_id = $2`, [workspaceId, agentId]);
  if (!visible) throw notFound('theWorkspace');
  return workspaceNames(workspaceId);
}
