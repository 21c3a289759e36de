import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { WORKSPACE_COOKIE } from '@/components/shell/workspace-cookie';
import { getSessionUser } from '@/lib/auth';
import { listWorkspaces } from '@/lib/workspaces';

/**
 * The front door: the last workspace you used, else the first business you belong to (that is where a
 * salon's owner or staff work), else your personal one; sign-in for visitors.
 */
export default async function Index() {
  const user = await getSessionUser();
  if (!user) redirect('/sign-in');
  const [workspaces, cookieStore] = await Promise.all([listWorkspaces(user), cookies()]);
  const remembered = cookieStore.get(WORKSPACE_COOKIE)?.value;
  const target =
    workspaces.find((workspace) => workspace.id === remembered) ??
    workspaces.find((workspace) => !workspace.isPersonal) ??
    workspaces[0];
  // Everyone has a personal workspace from sign-up on, so this is a safety net, not a path.
  redirect(target ? `/w/${target.id}` : '/workspaces/new');
}
