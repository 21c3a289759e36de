'use client';

import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useTransition } from 'react';
import { api, errorText } from '@/components/api/client';
import { Alert } from '@/components/ui/alert';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { useI18n } from '@/lib/i18n/client';

export function LeaveWorkspace({ workspaceId, userId, name }: { workspaceId: string; userId: string; name: string }) {
  const { t } = useI18n();
  const router = useRouter();
  const [navigating, startNavigation] = useTransition();
  const leave = useMutation({
    mutationFn: () => api(`/api/workspaces/${workspaceId}/members/${userId}`, { method: 'DELETE' }),
    // Gone from this workspace: "/" takes the person to one they still belong to.
    onSuccess: () => startNavigation(() => router.replace('/')),
  });

  return (
    <div className="flex flex-col gap-4">
      {leave.isError && <Alert tone="error">{errorText(leave.error, t)}</Alert>}
      <ConfirmButton
        question={t('leave.question', { name })}
        confirmLabel={t('leave.confirm')}
        onConfirm={() => leave.mutate()}
        pending={leave.isPending || leave.isSuccess || navigating}
      >
        {t('leave.submit')}
      </ConfirmButton>
    </div>
  );
}
