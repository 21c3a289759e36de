'use server';

import { ApiError, isUuid } from '@/lib/api';
import { getSessionUser } from '@/lib/auth';
import { setQueueConcurrency } from '@/lib/topics';

/** Settings → API keys: the workspace's queue concurrency. Admins only (RLS refuses anyone else). */
export async function saveQueueConcurrency(workspaceId: string, concurrency: number): Promise<{ error?: string }> {
  const user = await getSessionUser();
  if (!user) return { error: 'Sign in to continue.' };
  // A server action's arguments come from the browser as they are: checked here, as a route checks its input.
  if (typeof workspaceId !== 'string' || !isUuid(workspaceId)) return { error: 'This workspace was not found.' };
  try {
    await setQueueConcurrency({ kind: 'user', workspaceId, user }, concurrency);
    return {};
  } catch (error) {
    if (error instanceof ApiError) return { error: error.message };
    throw error;
  }
}
