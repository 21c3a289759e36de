import type { Wire } from '@/lib/api';
import type { Translate } from '@/lib/i18n';
import type { Invitation, Member, Workspace } from '@/lib/workspaces';

/**
 * Workspace data as client components see it: lib/workspaces' types as the REST API sends them
 * (`Wire`). Server pages pass lib results through `serialize` (or `toSummary`) before handing them down.
 */
export type { AssignableRole, Plan, Role } from '@/lib/workspaces';

/** What the switcher and the settings form need of a workspace. */
export type WorkspaceSummary = Omit<Wire<Workspace>, 'createdAt'>;
export type MemberView = Wire<Member>;
export type InvitationView = Wire<Invitation>;

export interface Option {
  value: string;
  label: string;
}

/** Strips a server object down to the summary and keeps Dates off the wire. */
export function toSummary(workspace: WorkspaceSummary): WorkspaceSummary {
  const { id, name, isPersonal, role, plan, timeZone, locale, sector } = workspace;
  return { id, name, isPersonal, role, plan, timeZone, locale, sector };
}

/**
 * Every personal workspace starts with the English name "Personal"; until its owner renames it,
 * show that name in the interface language.
 */
export function displayName(workspace: Pick<WorkspaceSummary, 'name' | 'isPersonal'>, t: Translate): string {
  return workspace.isPersonal && workspace.name === 'Personal' ? t('workspace.personalName') : workspace.name;
}
