import { notFound } from 'next/navigation';
import { ApiError } from '@/lib/api';
import type { Caller } from '@/lib/topics';
import { currentWorkspace } from '../current';

/** The signed-in member as a caller of the topic API (RLS applies), for the Topics pages. */
export async function pageCaller(workspaceId: string) {
  const { user, workspace } = await currentWorkspace(workspaceId);
  const caller: Caller = { kind: 'user', workspaceId: workspace.id, user };
  return { caller, workspace };
}

/** A topic or session that does not exist (or is not this workspace's) is the page's 404. */
export async function orNotFound<T>(load: Promise<T>): Promise<T> {
  try {
    return await load;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) notFound();
    throw error;
  }
}
