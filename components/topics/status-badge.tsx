'use client';

import { useI18n } from '@/lib/i18n/client';
import type { RequestStatus } from '@/lib/topics';

const tones: Record<RequestStatus, string> = {
  pending: 'bg-subtle text-muted',
  processing: 'bg-accent-soft text-accent-ink',
  completed: 'bg-success-soft text-ink',
  failed: 'bg-danger-soft text-ink',
};

/** A request's status in words (never colour alone); running ones pulse so the eye finds them. */
export function StatusBadge({ status }: { status: RequestStatus }) {
  const { t } = useI18n();
  return (
    <span className={`inline-flex shrink-0 items-center gap-1.5 rounded-full px-2.5 py-0.5 text-sm font-semibold ${tones[status]}`}>
      {status === 'processing' && <span aria-hidden className="size-2 animate-pulse rounded-full bg-current" />}
      {t(`topics.status.${status}`)}
    </span>
  );
}
