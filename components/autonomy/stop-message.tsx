'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { api, errorText } from '@/components/api/client';
import { Button } from '@/components/ui/button';
import { useToast } from '@/components/ui/toast';
import { useI18n } from '@/lib/i18n/client';

/** Stops a queued message (undoing the action that queued it). */
export function StopMessage({ workspaceId, messageId, name }: { workspaceId: string; messageId: string; name: string }) {
  const { t } = useI18n();
  const router = useRouter();
  const toast = useToast();
  const [pending, setPending] = useState(false);

  async function stop() {
    setPending(true);
    try {
      await api(`/api/workspaces/${workspaceId}/outbox/${messageId}/cancel`, { method: 'POST' });
      toast(t('outbox.stopped', { name }));
    } catch (error) {
      toast(t('done.undoFailed', { reason: errorText(error, t) }), 'error');
    }
    router.refresh();
    setPending(false);
  }

  return (
    <Button variant="ghost" className="-my-2 shrink-0" onClick={stop} pending={pending} aria-label={t('outbox.stopNamed', { name })}>
      {t('outbox.stop')}
    </Button>
  );
}
