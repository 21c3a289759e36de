'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { api, errorText } from '@/components/api/client';
import { Button } from '@/components/ui/button';
import { useToast } from '@/components/ui/toast';
import { useI18n } from '@/lib/i18n/client';

/**
 * Undo of one action under "Done for you", while its message is still queued: the message is cancelled,
 * and an action the owner approved waits in "Needs your OK" again.
 */
export function UndoButton({ workspaceId, decisionId, name }: { workspaceId: string; decisionId: string; name: string }) {
  const { t } = useI18n();
  const router = useRouter();
  const toast = useToast();
  const [pending, setPending] = useState(false);

  async function undo() {
    setPending(true);
    try {
      const { status } = await api<{ status: 'proposed' | 'undone' }>(`/api/workspaces/${workspaceId}/decisions/${decisionId}/undo`, { method: 'POST' });
      toast(t(status === 'proposed' ? 'done.undoneBack' : 'done.undone', { name }));
    } catch (error) {
      toast(t('done.undoFailed', { reason: errorText(error, t) }), 'error');
    }
    router.refresh();
    setPending(false);
  }

  return (
    <Button variant="ghost" className="-my-2 shrink-0" onClick={undo} pending={pending} aria-label={t('done.undoNamed', { name })}>
      {t('done.undo')}
    </Button>
  );
}
