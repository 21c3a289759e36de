import { formatMoment, type Locale, type Translate } from '@/lib/i18n';
import type { DeliveryView } from './types';

type Delivery = Pick<DeliveryView, 'status' | 'sentAt' | 'deliveredAt' | 'error' | 'nextAttemptAt' | 'connected'>;

/**
 * Where a message is, in words, wherever one shows (Home, approvals, planets, the outbox, a customer's
 * page). `sent` and `delivered` only ever come from a provider (lib/channels); a queued message with no
 * provider connected for its channel reads "Ready — connect email or SMS to send".
 */
export function deliveryText(delivery: Delivery, locale: Locale, timeZone: string, t: Translate): string {
  switch (delivery.status) {
    case 'queued':
      if (!delivery.connected) return t('delivery.queued');
      if (delivery.error && delivery.nextAttemptAt) {
        return t('delivery.retrying', { reason: delivery.error, when: formatMoment(delivery.nextAttemptAt, locale, timeZone) });
      }
      return t('delivery.waiting');
    case 'sent':
      return t('delivery.sent', { when: formatMoment(delivery.sentAt!, locale, timeZone) });
    case 'delivered':
      return t('delivery.delivered', { when: formatMoment(delivery.deliveredAt!, locale, timeZone) });
    case 'failed':
    case 'undeliverable':
      return delivery.error ? t(`delivery.${delivery.status}Because`, { reason: delivery.error }) : t(`delivery.${delivery.status}`);
    default:
      return t(`delivery.${delivery.status}`);
  }
}

/** A message that did not leave and that the owner may send by hand: queued with no provider for its channel. */
export const copyable = (delivery: Pick<Delivery, 'status' | 'connected'>) => delivery.status === 'queued' && !delivery.connected;
