'use server';

import { ApiError, errorMessage, isUuid, notFound, unauthorized } from '@/lib/api';
import { getSessionUser } from '@/lib/auth';
import { getLocale } from '@/lib/i18n/server';
import { setQueueConcurrency } from '@/lib/topics';

/** Settings → API keys: the workspace's queue concurrency. Admins only (RLS refuses anyone else). */
export async function saveQueueConcurrency(workspaceId: string, concurrency: number): Promise<{ error?: string }> {
  const locale = await getLocale();
  const user = await getSessionUser();
  if (!user) return { error: errorMessage(unauthorized(), locale) };
  // A server action's arguments come from the browser as they are: checked here, as a route checks its input.
  if (typeof workspaceId !== 'string' || !isUuid(workspaceId)) return { error: errorMessage(notFound('workspace'), locale) };
  try {
    await setQueueConcurrency({ kind: 'user', workspaceId, user }, concurrency);
    return {};
  } catch (error) {
    if (error instanceof ApiError) return { error: errorMessage(error, locale) };
    throw error;
  }
}
