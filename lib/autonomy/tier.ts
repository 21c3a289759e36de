import type { ActionType } from '@/lib/actions';
import { ACTION_PLANET } from '@/lib/actions';
import type { Tx } from '@/lib/db';

export type Tier = 'paused' | 'off' | 'propose' | 'auto';

/** What an action may do now in a workspace: private.action_tier, the one definition. */
export async function actionTier(tx: Tx, workspaceId: string, type: ActionType): Promise<Tier> {
  const [row] = await tx.query<{ tier: Tier }>(`select private.action_tier($1, $2, $3) as tier`, [workspaceId, ACTION_PLANET[type], type]);
  return row!.tier;
}
