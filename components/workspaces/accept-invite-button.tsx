'use client';

import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useTransition } from 'react';
import { api, errorText } from '@/components/api/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { useI18n } from '@/lib/i18n/client';

export function AcceptInviteButton({ token, workspaceName }: { token: string; workspaceName: string }) {
  const { t } = useI18n();
  const router = useRouter();
  const [navigating, startNavigation] = useTransition();
  const accept = useMutation({
    mutationFn: () => api<{ workspaceId: string }>('/api/invitations/accept', { body: { token } }),
    onSuccess: ({ workspaceId }) => startNavigation(() => router.replace(`/w/${workspaceId}`)),
  });

  return (
    <div className="flex flex-col gap-4">
      {accept.isError && <Alert tone="error">{errorText(accept.error, t)}</Alert>}
      <Button
        onClick={() => accept.mutate()}
        pending={accept.isPending || accept.isSuccess || navigating}
        pendingLabel={t('invitePage.joining')}
        className="w-full"
      >
        {t('invitePage.join', { name: workspaceName })}
      </Button>
    </div>
  );
}
