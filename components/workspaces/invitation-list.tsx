'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, errorText } from '@/components/api/client';
import { Button } from '@/components/ui/button';
import { useToast } from '@/components/ui/toast';
import { formatDateTime, formatRelative } from '@/lib/i18n';
import { useI18n } from '@/lib/i18n/client';
import { fetchInvitations, invitationsKey } from './queries';
import type { InvitationView } from './types';

/** Invitations nobody has accepted yet; revoking one takes effect at once and comes back if it fails. */
export function InvitationList({ workspaceId, initialInvitations }: { workspaceId: string; initialInvitations: InvitationView[] }) {
  const { t, locale } = useI18n();
  const toast = useToast();
  const queryClient = useQueryClient();
  const key = invitationsKey(workspaceId);
  const invitations = useQuery({ queryKey: key, queryFn: () => fetchInvitations(workspaceId), initialData: initialInvitations });

  const revoke = useMutation({
    mutationFn: (invitation: InvitationView) => api(`/api/workspaces/${workspaceId}/invitations/${invitation.id}`, { method: 'DELETE' }),
    onMutate: async (invitation) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<InvitationView[]>(key);
      queryClient.setQueryData<InvitationView[]>(key, (list) => (list ?? []).filter((pending) => pending.id !== invitation.id));
      return { previous };
    },
    onError: (error, _invitation, context) => {
      queryClient.setQueryData(key, context?.previous);
      toast(t('invitations.revokeFailed', { reason: errorText(error, t) }), 'error');
    },
    onSuccess: (_data, invitation) => toast(t('invitations.revoked', { email: invitation.email })),
  });

  if (invitations.data.length === 0) {
    return <p className="text-[0.9375rem] text-muted">{t('invitations.empty')}</p>;
  }
  return (
    <ul className="-mx-5 divide-y divide-line sm:-mx-6">
      {invitations.data.map((invitation) => (
        <li key={invitation.id} className="flex flex-wrap items-center gap-x-3 gap-y-2 px-5 py-3 sm:px-6">
          <div className="flex min-w-0 flex-1 flex-col">
            <span className="truncate font-semibold">{invitation.email}</span>
            <span className="text-sm text-muted">
              {t(`role.${invitation.role}`)} ·{' '}
              <time dateTime={invitation.expiresAt} title={formatDateTime(invitation.expiresAt, locale)} suppressHydrationWarning>
                {t('invitations.expires', { when: formatRelative(invitation.expiresAt, locale) })}
              </time>
            </span>
          </div>
          <Button variant="secondary" aria-label={t('invitations.revokeNamed', { email: invitation.email })} onClick={() => revoke.mutate(invitation)}>
            {t('invitations.revoke')}
          </Button>
        </li>
      ))}
    </ul>
  );
}
