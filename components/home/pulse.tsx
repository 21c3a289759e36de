import type { Locale, Translate } from '@/lib/i18n';
import { money, plural } from './format';
import type { DailyBriefView } from './types';

/** The one line: bookings today · new leads this week · revenue against last week, each with its comparison. */
export function Pulse({ pulse, locale, t }: { pulse: DailyBriefView['pulse']; locale: Locale; t: Translate }) {
  const revenue =
    pulse.revenueChangePct !== null && Math.round(pulse.revenueChangePct) !== 0
      ? t(pulse.revenueChangePct > 0 ? 'pulse.revenueUp' : 'pulse.revenueDown', { pct: Math.abs(Math.round(pulse.revenueChangePct)) })
      : pulse.revenueThisWeekCents === 0 && pulse.revenueLastWeekCents === 0
        ? t('pulse.revenueNone')
        : pulse.revenueLastWeekCents === 0
          ? t('pulse.revenueNew', { amount: money(pulse.revenueThisWeekCents, locale) })
          : t('pulse.revenueSame', { amount: money(pulse.revenueThisWeekCents, locale) });
  const parts = [plural(pulse.bookingsToday, 'pulse.bookingsOne', 'pulse.bookingsOther', t), plural(pulse.newLeads7d, 'pulse.leadsOne', 'pulse.leadsOther', t), revenue];
  return (
    <section aria-label={t('pulse.label')} className="rounded-2xl bg-accent-soft px-4 py-3">
      <p className="text-[0.9375rem] font-semibold text-pretty text-accent-ink">
        {parts.map((part, i) => (
          <span key={i}>
            {i > 0 && <span aria-hidden> · </span>}
            {i > 0 && <span className="sr-only">, </span>}
            {part}
          </span>
        ))}
      </p>
    </section>
  );
}
