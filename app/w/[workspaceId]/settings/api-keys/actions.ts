'use server';

import { ApiError } from '@/lib/api';
import { getSessionUser } from '@/lib/auth';
import { setQueueConcurrency } from '@/lib/topics';

/** Settings → API keys: the workspace's queue concurrency. Admins only (RLS refuses anyone else). */
export async function saveQueueConcurrency(workspaceId: string, concurrency: number): Promise<{ error?: string }> {
  const user = await getSessionUser();
  if (!user) return { error: 'Sign in to continue.' };
  try {
    await setQueueConcurrency({ kind: 'user', workspaceId, user }, concurrency);
    return {};
  } catch (error) {
    if (error instanceof ApiError) return { error: error.message };
    throw error;
  }
}
