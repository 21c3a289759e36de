'use client';

import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState, useTransition, type FormEvent } from 'react';
import { api, errorText } from '@/components/api/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { useI18n } from '@/lib/i18n/client';

const nameKey = (name: string) => name.trim().replace(/\s+/g, ' ').toLowerCase();

/** Erasure cannot be undone, so the customer's name is typed first (the server checks it too). */
export function EraseCustomer({ workspaceId, customerId, name }: { workspaceId: string; customerId: string; name: string }) {
  const { t } = useI18n();
  const router = useRouter();
  const [navigating, startNavigation] = useTransition();
  const [typed, setTyped] = useState('');
  const matches = nameKey(typed) === nameKey(name);

  const erase = useMutation({
    mutationFn: () =>
      api<{ appointmentsKept: number }>(`/api/workspaces/${workspaceId}/customers/${customerId}/erase`, { method: 'POST', body: { confirmName: typed } }),
    onSuccess: (result) => startNavigation(() => router.replace(`/w/${workspaceId}/customers?erased=${result.appointmentsKept}`)),
  });
  const busy = erase.isPending || erase.isSuccess || navigating;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (matches && !busy) erase.mutate();
  }

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4" aria-labelledby="erase-title">
      {erase.isError && <Alert tone="error">{errorText(erase.error, t)}</Alert>}
      <TextField
        id="confirmName"
        label={t('customers.eraseConfirm', { name })}
        autoComplete="off"
        spellCheck={false}
        value={typed}
        onChange={(event) => setTyped(event.target.value)}
      />
      <Button type="submit" variant="danger" disabled={!matches} pending={busy} pendingLabel={t('customers.erasePending')} className="self-start">
        {t('customers.eraseSubmit')}
      </Button>
    </form>
  );
}
