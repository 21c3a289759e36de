'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, errorText } from '@/components/api/client';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { useToast } from '@/components/ui/toast';
import { useI18n } from '@/lib/i18n/client';
import { fetchMembers, membersKey } from './queries';
import type { AssignableRole, MemberView, Role } from './types';

interface Viewer {
  userId: string;
  role: Role;
}

/**
 * Who is in the workspace. The owner changes roles; the owner removes anyone but themselves, an
 * admin removes plain members. Both changes show at once and roll back, with the reason, if the
 * server refuses.
 */
export function MemberList({ workspaceId, viewer, initialMembers }: { workspaceId: string; viewer: Viewer; initialMembers: MemberView[] }) {
  const { t } = useI18n();
  const toast = useToast();
  const queryClient = useQueryClient();
  const key = membersKey(workspaceId);
  const members = useQuery({ queryKey: key, queryFn: () => fetchMembers(workspaceId), initialData: initialMembers });

  /** Applies a change to the cached list now and returns the list to restore if it fails. */
  async function optimistic(change: (list: MemberView[]) => MemberView[]) {
    await queryClient.cancelQueries({ queryKey: key });
    const previous = queryClient.getQueryData<MemberView[]>(key);
    queryClient.setQueryData<MemberView[]>(key, (list) => change(list ?? []));
    return { previous };
  }

  const changeRole = useMutation({
    mutationFn: ({ member, role }: { member: MemberView; role: AssignableRole }) =>
      api(`/api/workspaces/${workspaceId}/members/${member.userId}`, { method: 'PATCH', body: { role } }),
    onMutate: ({ member, role }) => optimistic((list) => list.map((m) => (m.userId === member.userId ? { ...m, role } : m))),
    onError: (error, _vars, context) => {
      queryClient.setQueryData(key, context?.previous);
      toast(t('members.roleFailed', { reason: errorText(error, t) }), 'error');
    },
    onSuccess: (_data, { member, role }) => toast(t(role === 'admin' ? 'members.nowAdmin' : 'members.nowMember', { name: nameOf(member) })),
  });

  const remove = useMutation({
    mutationFn: (member: MemberView) => api(`/api/workspaces/${workspaceId}/members/${member.userId}`, { method: 'DELETE' }),
    onMutate: (member) => optimistic((list) => list.filter((m) => m.userId !== member.userId)),
    onError: (error, _member, context) => {
      queryClient.setQueryData(key, context?.previous);
      toast(t('members.removeFailed', { reason: errorText(error, t) }), 'error');
    },
    onSuccess: (_data, member) => toast(t('members.removed', { name: nameOf(member) })),
  });

  const canRemove = (member: MemberView) =>
    member.userId !== viewer.userId &&
    member.role !== 'owner' &&
    (viewer.role === 'owner' || (viewer.role === 'admin' && member.role === 'member'));

  return (
    <ul className="-mx-5 divide-y divide-line sm:-mx-6">
      {members.data.map((member) => {
        const name = nameOf(member);
        const isYou = member.userId === viewer.userId;
        const editable = viewer.role === 'owner' && member.role !== 'owner';
        // Controls move to a second line on phones; a plain role label always fits beside the name.
        const layout = editable || canRemove(member)
          ? 'grid-cols-[2.5rem_minmax(0,1fr)] sm:grid-cols-[2.5rem_minmax(0,1fr)_auto]'
          : 'grid-cols-[2.5rem_minmax(0,1fr)_auto]';
        return (
          <li key={member.userId} className={`grid items-center gap-x-3 gap-y-2 px-5 py-3 sm:px-6 ${layout}`}>
            <span aria-hidden className="flex size-10 shrink-0 items-center justify-center rounded-full bg-subtle font-semibold">
              {name.charAt(0).toUpperCase()}
            </span>
            <div className="flex min-w-0 flex-col">
              <span className="truncate font-semibold">
                {name}
                {isYou && <span className="ml-2 rounded-full bg-accent-soft px-2 py-0.5 text-xs font-semibold text-accent-ink">{t('members.you')}</span>}
              </span>
              {member.displayName && <span className="truncate text-sm text-muted">{member.email}</span>}
            </div>
            <div className={`flex flex-wrap items-center gap-2 ${editable || canRemove(member) ? 'col-start-2 sm:col-start-3' : ''}`}>
              {editable ? (
                <select
                  aria-label={t('members.roleFor', { name })}
                  value={member.role}
                  onChange={(event) => changeRole.mutate({ member, role: event.target.value as AssignableRole })}
                  className="min-h-11 rounded-xl border border-line-strong bg-surface px-3 text-[0.9375rem] font-medium"
                >
                  <option value="admin">{t('role.admin')}</option>
                  <option value="member">{t('role.member')}</option>
                </select>
              ) : (
                <span className="rounded-full bg-subtle px-3 py-1 text-sm font-semibold">{t(`role.${member.role}`)}</span>
              )}
              {canRemove(member) && (
                <ConfirmButton
                  label={t('members.removeNamed', { name })}
                  question={t('members.removeQuestion', { name })}
                  confirmLabel={t('members.remove')}
                  onConfirm={() => remove.mutate(member)}
                >
                  {t('members.remove')}
                </ConfirmButton>
              )}
            </div>
          </li>
        );
      })}
    </ul>
  );
}

const nameOf = (member: MemberView) => member.displayName || member.email;
