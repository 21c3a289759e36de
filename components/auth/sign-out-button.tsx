'use client';

import { useState } from 'react';
import { api, errorText } from '@/components/api/client';
import { Button } from '@/components/ui/button';
import { SignOutIcon } from '@/components/ui/icons';
import { useToast } from '@/components/ui/toast';
import { useI18n } from '@/lib/i18n/client';

/**
 * Signs out and reloads into the sign-in page: a full load drops every cached query, so nothing of
 * the previous account stays in memory. Plain state rather than a TanStack mutation: it sits in the
 * shell of every page, the Home included, which loads no query library.
 */
export function SignOutButton({ variant = 'secondary', next }: { variant?: 'secondary' | 'menu'; next?: string }) {
  const { t } = useI18n();
  const toast = useToast();
  const [busy, setBusy] = useState(false);

  async function signOut() {
    setBusy(true);
    try {
      await api('/api/auth/sign-out', { method: 'POST' });
      // Stays busy until the page is replaced.
      window.location.replace(next ? `/sign-in?next=${encodeURIComponent(next)}` : '/sign-in');
    } catch (error) {
      toast(t('signOut.failed', { reason: errorText(error, t) }), 'error');
      setBusy(false);
    }
  }

  if (variant === 'menu') {
    return (
      <button
        type="button"
        onClick={signOut}
        disabled={busy}
        className="flex min-h-12 w-full items-center gap-3 rounded-xl px-3 text-left font-medium hover:bg-subtle disabled:opacity-60"
      >
        <SignOutIcon />
        {t('signOut.submit')}
      </button>
    );
  }
  return (
    <Button variant="secondary" onClick={signOut} pending={busy} pendingLabel={t('signOut.pending')}>
      <SignOutIcon />
      {t('signOut.submit')}
    </Button>
  );
}
