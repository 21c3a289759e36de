'use client';

import type { Wire } from '@/lib/api';
import { useI18n } from '@/lib/i18n/client';
import type { RoutingChange } from '@/lib/sales';

/** What a territory change would move, said before anything is written. */
export function MovesPreview({ change }: { change: Wire<RoutingChange> }) {
  const { t } = useI18n();
  const heading = !change.activeModel ? t('sales.setup.inactiveModel') : change.moves.length === 0 ? t('sales.setup.nothingMoves') : t('sales.setup.wouldMove', { count: change.moves.length });
  return (
    <section role="status" aria-label={t('sales.setup.previewTitle')} className="flex flex-col gap-2 rounded-xl border border-line bg-subtle p-3">
      <p className="font-semibold">{heading}</p>
      {change.moves.length > 0 && (
        <ul className="flex flex-col gap-1.5 text-sm">
          {change.moves.map((m) => (
            <li key={`${m.kind}-${m.id}`}>
              {t(m.kind === 'deal' ? 'sales.setup.moveDeal' : 'sales.setup.moveLead', {
                title: m.title,
                from: m.fromName ?? t('sales.setup.nobody'),
                to: m.toName,
                territory: m.territory,
              })}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
