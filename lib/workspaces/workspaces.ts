import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { conflict, forbidden, isUuid, managersOnly, notFound, ownerOnly, rethrowAsApiError, type ManagersOnly, type OwnerOnly } from '@/lib/api';
import { emailSchema, isTimeZone, mailLanguage, newToken, queueEmail, sha256 } from '@/lib/auth';
import { config } from '@/lib/config';
import { asService, elevated, withUser as withUserTx, type SessionUser, type Tx } from '@/lib/db';
import { LOCALES, type Locale } from '@/lib/i18n';
import { publish } from '@/lib/realtime';
import { SECTOR_IDS } from './sectors';

export const ROLES = ['owner', 'admin', 'member'] as const;
export type Role = (typeof ROLES)[number];
/** The roles an invitation or a role change gives: a workspace has one owner, who never changes. */
export const ASSIGNABLE_ROLES = ['admin', 'member'] as const;
export type AssignableRole = (typeof ASSIGNABLE_ROLES)[number];
export const PLANS = ['free', 'pro', 'business'] as const;
export type Plan = (typeof PLANS)[number];

export interface Workspace {
  id: string;
  name: string;
  isPersonal: boolean;
  role: Role;
  plan: Plan;
  timeZone: string;
  locale: Locale;
  sector: string;
  createdAt: Date;
}

export const INVITATION_DAYS = 7;

const timeZone = z.string().max(64).refine(isTimeZone, 'api.field.unknownTimeZone');
export const workspaceSettingsSchema = z.object({
  name: z.string().trim().min(1, 'api.workspaces.nameRequired').max(80, 'api.field.maxChars'),
  timeZone,
  locale: z.enum(LOCALES),
  sector: z.enum(SECTOR_IDS),
});
export const createWorkspaceSchema = workspaceSettingsSchema.partial({ timeZone: true, locale: true, sector: true });
export const updateWorkspaceSchema = workspaceSettingsSchema
  .partial()
  .refine((v) => Object.keys(v).length > 0, 'api.workspaces.nothingToChange');
export const inviteSchema = z.object({ email: emailSchema, role: z.enum(ASSIGNABLE_ROLES).default('member') });
export const roleSchema = z.object({ role: z.enum(ASSIGNABLE_ROLES) });

/** Every query here runs under RLS as the caller; database refusals come back as API errors. */
const withUser = <T>(user: SessionUser, fn: (tx: Tx) => Promise<T>) => withUserTx(user, fn).catch(rethrowAsApiError);

const workspaceColumns = `w.id, w.name, w.is_personal, m.role, w.plan, w.time_zone, w.locale, w.sector, w.created_at`;

interface WorkspaceRow {
  id: string;
  name: string;
  is_personal: boolean;
  role: Role;
  plan: Plan;
  time_zone: string;
  locale: Locale;
  sector: string;
  created_at: Date;
}

const toWorkspace = (r: WorkspaceRow): Workspace => ({
  id: r.id,
  name: r.name,
  isPersonal: r.is_personal,
  role: r.role,
  plan: r.plan,
  timeZone: r.time_zone,
  locale: r.locale,
  sector: r.sector,
  createdAt: r.created_at,
});

/** The caller's workspaces, personal first. */
export async function listWorkspaces(user: SessionUser): Promise<Workspace[]> {
  const rows = await withUser(user, (tx) =>
    tx.query<WorkspaceRow>(
      `select ${workspaceColumns} from public.workspaces w
         join public.workspace_members m on m.workspace_id = w.id and m.user_id = $1
        order by w.is_personal desc, lower(w.name)`,
      [user.id],
    ),
  );
  return rows.map(toWorkspace);
}

/** `requireWorkspace` in a transaction of its own, for modules that check the caller before their own work. */
export function workspaceFor(user: SessionUser, id: string, only?: RoleRequirement): Promise<Workspace> {
  return withUser(user, (tx) => requireWorkspace(tx, user, id, only));
}

/** `null` when it does not exist or the caller is not a member: the two are indistinguishable. */
export async function getWorkspace(user: SessionUser, id: string): Promise<Workspace | null> {
  if (!isUuid(id)) return null;
  return withUser(user, (tx) => findWorkspace(tx, user, id));
}

async function findWorkspace(tx: Tx, user: SessionUser, id: string): Promise<Workspace | null> {
  const [row] = await tx.query<WorkspaceRow>(
    `select ${workspaceColumns} from public.workspaces w
       join public.workspace_members m on m.workspace_id = w.id and m.user_id = $2
      where w.id = $1`,
    [id, user.id],
  );
  return row ? toWorkspace(row) : null;
}

/** Who may do `what` in a workspace: its owner and admins, or its owner alone. */
export type RoleRequirement = { who: 'managers'; what: ManagersOnly } | { who: 'owner'; what: OwnerOnly };

/** The workspace as the caller sees it (404 for a stranger); `only` refuses the others with a sentence that says what they tried. */
async function requireWorkspace(tx: Tx, user: SessionUser, id: string, only?: RoleRequirement): Promise<Workspace> {
  const workspace = isUuid(id) ? await findWorkspace(tx, user, id) : null;
  if (!workspace) throw notFound('workspace');
  if (only?.who === 'owner' && workspace.role !== 'owner') throw ownerOnly(only.what);
  if (only?.who === 'managers' && workspace.role === 'member') throw managersOnly(only.what);
  return workspace;
}

export async function createWorkspace(user: SessionUser, input: z.infer<typeof createWorkspaceSchema>): Promise<Workspace> {
  return withUser(user, (tx) => insertWorkspace(tx, user, input));
}

/** `createWorkspace` in the caller's transaction (as `user`, under RLS): onboarding creates the workspace with its rows. */
export async function insertWorkspace(tx: Tx, user: SessionUser, input: z.infer<typeof createWorkspaceSchema>): Promise<Workspace> {
  // The id is chosen here: `returning` would have to pass the select policy before the trigger
  // has made the creator a member.
  const id = randomUUID();
  await tx.query(
    `insert into public.workspaces (id, name, owner_id, time_zone, locale, sector)
     values ($1, $2, $3, coalesce($4, 'UTC'), coalesce($5, 'en'), coalesce($6, 'other'))`,
    [id, input.name, user.id, input.timeZone ?? null, input.locale ?? null, input.sector ?? null],
  );
  return (await findWorkspace(tx, user, id))!;
}

export async function updateWorkspace(user: SessionUser, id: string, input: z.infer<typeof updateWorkspaceSchema>): Promise<Workspace> {
  return withUser(user, async (tx) => {
    await requireWorkspace(tx, user, id, { who: 'managers', what: 'changeWorkspaceSettings' });
    await tx.query(
      `update public.workspaces set
         name = coalesce($2, name), time_zone = coalesce($3, time_zone),
         locale = coalesce($4, locale), sector = coalesce($5, sector)
       where id = $1`,
      [id, input.name ?? null, input.timeZone ?? null, input.locale ?? null, input.sector ?? null],
    );
    return (await findWorkspace(tx, user, id))!;
  });
}

export async function deleteWorkspace(user: SessionUser, id: string): Promise<void> {
  await withUser(user, async (tx) => {
    const workspace = await requireWorkspace(tx, user, id, { who: 'owner', what: 'deleteWorkspace' });
    if (workspace.isPersonal) throw forbidden('api.workspaces.personalNotDeletable');
    await tx.query('delete from public.workspaces where id = $1', [id]);
    await publish(tx, { type: 'members', workspaceId: id });
  });
}

export interface Member {
  userId: string;
  email: string;
  displayName: string;
  role: Role;
  createdAt: Date;
}

export async function listMembers(user: SessionUser, workspaceId: string): Promise<Member[]> {
  return withUser(user, async (tx) => {
    await requireWorkspace(tx, user, workspaceId);
    const rows = await tx.query<{ user_id: string; email: string; display_name: string; role: Role; created_at: Date }>(
      `select m.user_id, p.email, p.display_name, m.role, m.created_at
         from public.workspace_members m join public.profiles p on p.user_id = m.user_id
        where m.workspace_id = $1
        order by case m.role when 'owner' then 0 when 'admin' then 1 else 2 end, lower(p.email)`,
      [workspaceId],
    );
    return rows.map((r) => ({ userId: r.user_id, email: r.email, displayName: r.display_name, role: r.role, createdAt: r.created_at }));
  });
}

export async function changeRole(user: SessionUser, workspaceId: string, memberId: string, role: AssignableRole): Promise<void> {
  await withUser(user, async (tx) => {
    await requireWorkspace(tx, user, workspaceId, { who: 'owner', what: 'changeRoles' });
    const updated = await tx.query('update public.workspace_members set role = $3 where workspace_id = $1 and user_id = $2 returning 1', [
      workspaceId,
      isUuid(memberId) ? memberId : null,
      role,
    ]);
    if (!updated.length) throw notFound('member');
    await publish(tx, { type: 'members', workspaceId });
  });
}

/** Removes a member, or leaves the workspace when `memberId` is the caller. */
export async function removeMember(user: SessionUser, workspaceId: string, memberId: string): Promise<void> {
  await withUser(user, async (tx) => {
    const workspace = await requireWorkspace(tx, user, workspaceId);
    const [target] = await tx.query<{ role: Role }>('select role from public.workspace_members where workspace_id = $1 and user_id = $2', [
      workspaceId,
      isUuid(memberId) ? memberId : null,
    ]);
    if (!target) throw notFound('member');
    if (target.role === 'owner') {
      throw forbidden(memberId === user.id ? 'api.workspaces.ownerCannotLeave' : 'api.workspaces.ownerCannotBeRemoved');
    }
    if (memberId !== user.id) {
      const allowed = workspace.role === 'owner' || (workspace.role === 'admin' && target.role === 'member');
      if (!allowed) throw workspace.role === 'admin' ? ownerOnly('removeAdmin') : managersOnly('removeMembers');
    }
    await tx.query('delete from public.workspace_members where workspace_id = $1 and user_id = $2', [workspaceId, memberId]);
    // Their open event stream ends now rather than when its cached answers run out (lib/chat).
    await publish(tx, { type: 'members', workspaceId });
  });
}

export interface Invitation {
  id: string;
  email: string;
  role: AssignableRole;
  expiresAt: Date;
  createdAt: Date;
}

export async function listInvitations(user: SessionUser, workspaceId: string): Promise<Invitation[]> {
  return withUser(user, async (tx) => {
    await requireWorkspace(tx, user, workspaceId, { who: 'managers', what: 'seeInvitations' });
    const rows = await tx.query<{ id: string; email: string; role: AssignableRole; expires_at: Date; created_at: Date }>(
      `select id, email, role, expires_at, created_at from public.workspace_invitations
        where workspace_id = $1 and accepted_at is null and expires_at > now() order by created_at desc`,
      [workspaceId],
    );
    return rows.map((r) => ({ id: r.id, email: r.email, role: r.role, expiresAt: r.expires_at, createdAt: r.created_at }));
  });
}

/** Creates the invitation and queues its email; the link is returned once, only its hash is kept. */
export async function createInvitation(
  user: SessionUser,
  workspaceId: string,
  input: z.infer<typeof inviteSchema>,
): Promise<{ invitation: Invitation; link: string }> {
  const token = newToken();
  const link = `${config().APP_URL}/invite/${token}`;
  return withUser(user, async (tx) => {
    const workspace = await requireWorkspace(tx, user, workspaceId, { who: 'managers', what: 'invitePeople' });
    if (workspace.isPersonal) throw forbidden('api.workspaces.personalHasNoMembers');
    if (input.role === 'admin' && workspace.role !== 'owner') throw ownerOnly('inviteAdmins');
    const already = await tx.query(
      `select 1 from public.workspace_members m join public.profiles p on p.user_id = m.user_id
        where m.workspace_id = $1 and lower(p.email) = $2`,
      [workspaceId, input.email],
    );
    if (already.length) throw conflict('api.workspaces.alreadyMember', { email: input.email });
    const [row] = await tx.query<{ id: string; expires_at: Date; created_at: Date }>(
      `insert into public.workspace_invitations (workspace_id, email, role, token_hash, invited_by, expires_at)
       values ($1, $2, $3, $4, $5, now() + make_interval(days => $6)) returning id, expires_at, created_at`,
      [workspaceId, input.email, input.role, sha256(token), user.id, INVITATION_DAYS],
    );
    await elevated(tx, async (service) => {
      // The invitee's own language when they already have an account, else the workspace's.
      const [invitee] = await service.query<{ locale: string | null }>(`select locale from public.profiles where lower(email) = $1 limit 1`, [input.email]);
      const { locale, t } = mailLanguage(invitee?.locale, workspace.locale);
      const vars = { inviter: user.email, workspace: workspace.name, days: INVITATION_DAYS };
      await queueEmail(service, {
        to: input.email,
        kind: 'invitation',
        locale,
        subject: t('accountMail.inviteSubject', vars),
        body: t(input.role === 'admin' ? 'accountMail.inviteBodyAdmin' : 'accountMail.inviteBodyMember', vars),
        link: { url: link, label: t('accountMail.inviteLink') },
      });
    });
    return { invitation: { id: row!.id, email: input.email, role: input.role, expiresAt: row!.expires_at, createdAt: row!.created_at }, link };
  });
}

export async function revokeInvitation(user: SessionUser, workspaceId: string, invitationId: string): Promise<void> {
  await withUser(user, async (tx) => {
    await requireWorkspace(tx, user, workspaceId, { who: 'managers', what: 'revokeInvitations' });
    const deleted = await tx.query('delete from public.workspace_invitations where workspace_id = $1 and id = $2 returning 1', [
      workspaceId,
      isUuid(invitationId) ? invitationId : null,
    ]);
    if (!deleted.length) throw notFound('invitation');
  });
}

export async function acceptInvitation(user: SessionUser, token: string): Promise<{ workspaceId: string }> {
  return withUser(user, async (tx) => {
    const [row] = await tx.query<{ workspace_id: string }>('select public.accept_invitation($1) as workspace_id', [sha256(token)]);
    return { workspaceId: row!.workspace_id };
  });
}

/** What the invitation page shows before the person accepts; the token itself is the credential. */
export async function getInvitationPreview(
  token: string,
): Promise<{ workspaceName: string; email: string; expired: boolean; accepted: boolean } | null> {
  const [row] = await asService((tx) =>
    tx.query<{ name: string; email: string; expired: boolean; accepted: boolean }>(
      `select w.name, i.email, i.expires_at <= now() as expired, i.accepted_at is not null as accepted
         from public.workspace_invitations i join public.workspaces w on w.id = i.workspace_id
        where i.token_hash = $1`,
      [sha256(token)],
    ),
  );
  return row ? { workspaceName: row.name, email: row.email, expired: row.expired, accepted: row.accepted } : null;
}

/**
 * Who work written in someone's name is written as, when it arrives later (an API key's task, a
 * routine's run): that person while they are still a member, else the workspace's owner. Undefined when
 * the workspace is gone.
 */
export async function memberOrOwner(workspaceId: string, preferredUserId: string | null): Promise<SessionUser | undefined> {
  const [person] = await asService((tx) =>
    tx.query<SessionUser>(
      `select u.id, u.email from public.workspaces w
         join auth.users u on u.id = coalesce(
           (select m.user_id from public.workspace_members m where m.workspace_id = w.id and m.user_id = $2), w.owner_id)
        where w.id = $1`,
      [workspaceId, preferredUserId],
    ),
  );
  return person;
}
