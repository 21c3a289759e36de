'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { api, errorText, fieldErrorsOf } from '@/components/api/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { SelectField, TextField } from '@/components/ui/field';
import { focusFirstError, looksLikeEmail, type FieldErrors } from '@/components/ui/form';
import type { Wire } from '@/lib/api';
import { useI18n } from '@/lib/i18n/client';
import type { createInvitation } from '@/lib/workspaces';
import { invitationsKey } from './queries';
import type { AssignableRole, InvitationView } from './types';

type Created = Wire<Awaited<ReturnType<typeof createInvitation>>>;

/** Owners invite admins or members, admins invite members. The link is shown once, right after. */
export function InviteForm({ workspaceId, canInviteAdmins }: { workspaceId: string; canInviteAdmins: boolean }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const formRef = useRef<HTMLFormElement>(null);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<AssignableRole>('member');
  const [localErrors, setLocalErrors] = useState<FieldErrors>({});

  const invite = useMutation({
    mutationFn: (body: { email: string; role: AssignableRole }) => api<Created>(`/api/workspaces/${workspaceId}/invitations`, { body }),
    onSuccess: ({ invitation }) => {
      queryClient.setQueryData<InvitationView[]>(invitationsKey(workspaceId), (list) => [
        invitation,
        ...(list ?? []).filter((pending) => pending.id !== invitation.id),
      ]);
      setEmail('');
    },
    onError: (error) => focusFirstError(formRef.current, fieldErrorsOf(error)),
  });
  const errors = { ...fieldErrorsOf(invite.error), ...localErrors };

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (invite.isPending) return;
    if (!looksLikeEmail(email)) {
      const found = { email: [t('validation.email')] };
      setLocalErrors(found);
      return focusFirstError(formRef.current, found);
    }
    invite.mutate({ email: email.trim(), role: canInviteAdmins ? role : 'member' });
  }

  return (
    <div className="flex flex-col gap-4">
      <form ref={formRef} onSubmit={submit} noValidate className="flex flex-col gap-4">
        {invite.isError && !Object.keys(fieldErrorsOf(invite.error)).length && <Alert tone="error">{errorText(invite.error, t)}</Alert>}
        <TextField
          id="email"
          type="email"
          label={t('fields.email')}
          autoComplete="off"
          inputMode="email"
          value={email}
          onChange={(event) => {
            setEmail(event.target.value);
            setLocalErrors({});
          }}
          errors={errors.email}
        />
        {canInviteAdmins ? (
          <SelectField
            id="role"
            label={t('invite.role')}
            hint={t('invite.roleHint')}
            value={role}
            onChange={(event) => setRole(event.target.value as AssignableRole)}
            options={[
              { value: 'member', label: t('role.member') },
              { value: 'admin', label: t('role.admin') },
            ]}
            errors={errors.role}
          />
        ) : (
          <p className="text-sm text-muted">{t('invite.memberOnly')}</p>
        )}
        <Button type="submit" pending={invite.isPending} pendingLabel={t('invite.pending')} className="self-start">
          {t('invite.submit')}
        </Button>
      </form>
      {invite.isSuccess && <InviteLink email={invite.data.invitation.email} link={invite.data.link} />}
    </div>
  );
}

function InviteLink({ email, link }: { email: string; link: string }) {
  const { t } = useI18n();
  const [copied, setCopied] = useState(false);

  async function copy() {
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
      setTimeout(() => setCopied(false), 2500);
    } catch {
      // Clipboard access can be refused; the link stays selectable in the field.
    }
  }

  return (
    <Alert tone="success">
      <p className="mb-3">{t('invite.created', { email })}</p>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="min-w-0 flex-1">
          <label htmlFor="inviteLink" className="mb-1 block text-sm font-semibold">
            {t('invite.link')}
          </label>
          <input
            id="inviteLink"
            readOnly
            value={link}
            onFocus={(event) => event.currentTarget.select()}
            className="min-h-11 w-full rounded-xl border border-line-strong bg-surface px-3 font-mono text-sm"
          />
        </div>
        <Button variant="secondary" onClick={copy}>
          {copied ? t('invite.copied') : t('invite.copy')}
        </Button>
      </div>
    </Alert>
  );
}
