import type { Translate } from '@/lib/i18n';

/**
 * Workspace data as client components see it: what the REST API returns (camelCase, dates as ISO
 * strings). Server pages convert lib results to this shape before passing them down.
 */
export type Role = 'owner' | 'admin' | 'member';
export type Plan = 'free' | 'pro' | 'business';

export interface WorkspaceSummary {
  id: string;
  name: string;
  isPersonal: boolean;
  role: Role;
  plan: Plan;
  timeZone: string;
  locale: 'en' | 'it';
  sector: string;
}

export interface MemberView {
  userId: string;
  email: string;
  displayName: string;
  role: Role;
  createdAt: string;
}

export interface InvitationView {
  id: string;
  email: string;
  role: 'admin' | 'member';
  expiresAt: string;
  createdAt: string;
}

export interface Option {
  value: string;
  label: string;
}

/** Strips a server object down to the summary and keeps Dates off the wire. */
export function toSummary(workspace: WorkspaceSummary): WorkspaceSummary {
  const { id, name, isPersonal, role, plan, timeZone, locale, sector } = workspace;
  return { id, name, isPersonal, role, plan, timeZone, locale, sector };
}

export const iso = (date: Date | string) => new Date(date).toISOString();

/**
 * Every personal workspace starts with the English name "Personal"; until its owner renames it,
 * show that name in the interface language.
 */
export function displayName(workspace: Pick<WorkspaceSummary, 'name' | 'isPersonal'>, t: Translate): string {
  return workspace.isPersonal && workspace.name === 'Personal' ? t('workspace.personalName') : workspace.name;
}
