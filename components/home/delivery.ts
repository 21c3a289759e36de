import { formatMoment, type Locale, type Translate } from '@/lib/i18n';
import type { DeliveryView } from './types';

/**
 * Where a message is, in words, wherever one shows (Home, approvals, planets, the outbox). `sent` and
 * `delivered` only ever come from a provider; with none connected a message reads "Ready to send — no
 * SMS or email is connected" (lib/actions/outbox.ts).
 */
export function deliveryText(delivery: DeliveryView, locale: Locale, timeZone: string, t: Translate): string {
  switch (delivery.status) {
    case 'sent':
      return t('delivery.sent', { when: formatMoment(delivery.sentAt!, locale, timeZone) });
    case 'delivered':
      return t('delivery.delivered', { when: formatMoment(delivery.deliveredAt!, locale, timeZone) });
    default:
      return t(`delivery.${delivery.status}`);
  }
}
