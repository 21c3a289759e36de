'use client';

import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState, useTransition, type FormEvent } from 'react';
import { api, errorText } from '@/components/api/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { useI18n } from '@/lib/i18n/client';

/** Deleting cannot be undone, so the owner types the workspace's name first. */
export function DeleteWorkspace({ workspaceId, name }: { workspaceId: string; name: string }) {
  const { t } = useI18n();
  const router = useRouter();
  const [navigating, startNavigation] = useTransition();
  const [typed, setTyped] = useState('');
  const matches = typed.trim() === name;

  const remove = useMutation({
    mutationFn: () => api(`/api/workspaces/${workspaceId}`, { method: 'DELETE' }),
    // "/" picks the next workspace to show (the remembered one no longer exists).
    onSuccess: () => startNavigation(() => router.replace('/')),
  });
  const busy = remove.isPending || remove.isSuccess || navigating;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!matches || busy) return;
    remove.mutate();
  }

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4">
      {remove.isError && <Alert tone="error">{errorText(remove.error, t)}</Alert>}
      <TextField
        id="confirmName"
        label={t('deleteWorkspace.confirmLabel', { name })}
        autoComplete="off"
        spellCheck={false}
        value={typed}
        onChange={(event) => setTyped(event.target.value)}
      />
      <Button type="submit" variant="danger" disabled={!matches} pending={busy} pendingLabel={t('deleteWorkspace.pending')} className="self-start">
        {t('deleteWorkspace.submit')}
      </Button>
    </form>
  );
}
