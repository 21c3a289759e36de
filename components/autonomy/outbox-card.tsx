import { StopMessage } from '@/components/autonomy/stop-message';
import { CopyMessage } from '@/components/home/copy-message';
import { copyable, deliveryText } from '@/components/home/delivery';
import { Card, CardTitle } from '@/components/ui/card';
import type { Wire } from '@/lib/api';
import type { OutboxMessageView } from '@/lib/autonomy';
import type { Locale, Translate } from '@/lib/i18n';

/**
 * The workspace's outgoing messages with where each one is, as Settings → Messages and Settings → Autonomy
 * both show them: a message waiting for a connection can be copied, a queued one stopped.
 */
export function OutboxCard({ workspaceId, messages, title, lead, locale, timeZone, t }: {
  workspaceId: string;
  messages: Wire<OutboxMessageView[]>;
  title: string;
  lead?: string;
  locale: Locale;
  timeZone: string;
  t: Translate;
}) {
  return (
    <Card>
      <CardTitle>{title}</CardTitle>
      {lead && <p className="mt-1 text-sm text-pretty text-muted">{lead}</p>}
      {messages.length === 0 ? (
        <p className="mt-2 text-[0.9375rem] text-muted">{t('autonomy.outboxEmpty')}</p>
      ) : (
        <ul className="mt-3 divide-y divide-line">
          {messages.map((m) => (
            <li key={m.id} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-start">
              <div className="flex min-w-0 flex-1 flex-col gap-1">
                <span className="text-sm font-semibold">
                  {m.recipientName} · {t(`channel.${m.channel}`)} {m.recipient}
                </span>
                <p className="text-sm text-pretty break-words text-muted">{m.body}</p>
                <span className="text-xs text-muted">{deliveryText(m, locale, timeZone, t)}</span>
              </div>
              <div className="flex flex-wrap gap-2">
                {copyable(m) && <CopyMessage text={m.body} name={m.recipientName || m.recipient} labels={{ copy: t('delivery.copy'), copied: t('delivery.copied') }} />}
                {m.status === 'queued' && <StopMessage workspaceId={workspaceId} messageId={m.id} name={m.recipientName} />}
              </div>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
