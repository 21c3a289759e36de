import { notFound, redirect } from 'next/navigation';
import { cache } from 'react';
import { getSessionUser } from '@/lib/auth';
import { getWorkspace } from '@/lib/workspaces';

/**
 * The signed-in user and the workspace in the URL, or the way out: sign-in for visitors, 404 for
 * anyone who is not a member. Cached per request, so the layout and the page share one lookup.
 */
export const currentWorkspace = cache(async (workspaceId: string) => {
  const user = await getSessionUser();
  if (!user) redirect(`/sign-in?next=${encodeURIComponent(`/w/${workspaceId}`)}`);
  const workspace = await getWorkspace(user, workspaceId);
  if (!workspace) notFound();
  return { user, workspace };
});

export type WorkspaceParams = Promise<{ workspaceId: string }>;
