'use client';

import { useMutation } from '@tanstack/react-query';
import { api, errorText } from '@/components/api/client';
import { Button } from '@/components/ui/button';
import { SignOutIcon } from '@/components/ui/icons';
import { useToast } from '@/components/ui/toast';
import { useI18n } from '@/lib/i18n/client';

/**
 * Signs out and reloads into the sign-in page: a full load drops every cached query, so nothing of
 * the previous account stays in memory.
 */
export function SignOutButton({ variant = 'secondary', next }: { variant?: 'secondary' | 'menu'; next?: string }) {
  const { t } = useI18n();
  const toast = useToast();
  const signOut = useMutation({
    mutationFn: () => api('/api/auth/sign-out', { method: 'POST' }),
    onSuccess: () => window.location.replace(next ? `/sign-in?next=${encodeURIComponent(next)}` : '/sign-in'),
    onError: (error) => toast(t('signOut.failed', { reason: errorText(error, t) }), 'error'),
  });
  const busy = signOut.isPending || signOut.isSuccess;

  if (variant === 'menu') {
    return (
      <button
        type="button"
        onClick={() => signOut.mutate()}
        disabled={busy}
        className="flex min-h-12 w-full items-center gap-3 rounded-xl px-3 text-left font-medium hover:bg-subtle disabled:opacity-60"
      >
        <SignOutIcon />
        {t('signOut.submit')}
      </button>
    );
  }
  return (
    <Button variant="secondary" onClick={() => signOut.mutate()} pending={busy} pendingLabel={t('signOut.pending')}>
      <SignOutIcon />
      {t('signOut.submit')}
    </Button>
  );
}
