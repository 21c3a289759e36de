import { migrate, openPglite, useDatabase as installDatabase, type Database } from '@/lib/db';

/**
 * The run log of a bridge that cannot reach the app's database (a laptop). `runAgent` keeps its books
 * — a row per run, the month's tokens, the pseudonymization key — in a database; here that is an
 * embedded one of the bridge's own, so a local agent's runs stay on the owner's machine (its tokens
 * are the owner's own subscription or key, not the workspace's allowance). Each workspace the agent
 * answers in gets a stand-in row there, on the largest plan, so the local books never refuse a run.
 */
const LOCAL_OWNER = '00000000-0000-4000-8000-00000000b41d';

export async function openLocalRunLog(dir: string): Promise<{ db: Database; ensureWorkspace: (workspaceId: string) => Promise<void> }> {
  const db = await openPglite(dir);
  await migrate(db);
  installDatabase(db);
  const known = new Set<string>();
  return {
    db,
    async ensureWorkspace(workspaceId) {
      if (known.has(workspaceId)) return;
      await db.transaction(async (tx) => {
        await tx.query(`insert into auth.users (id, email) values ($1, 'bridge@localhost') on conflict do nothing`, [LOCAL_OWNER]);
        await tx.query(
          `insert into public.workspaces (id, name, owner_id, plan) values ($1, 'Bridge run log', $2, 'business') on conflict (id) do nothing`,
          [workspaceId, LOCAL_OWNER],
        );
      });
      known.add(workspaceId);
    },
  };
}
