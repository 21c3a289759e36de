import { plural, type Locale, type Translate } from '@/lib/i18n';
import { money } from '@/lib/planets';
import type { DailyBriefView } from './types';

/**
 * The one line: bookings today · new leads this week · revenue. Revenue is this week's finished days
 * against the same days of last week; when those took nothing there is no comparison to make, so the
 * line says what the week has booked instead of shouting "−100%" on a Tuesday morning (docs/home.md).
 */
export function Pulse({ pulse, locale, t }: { pulse: DailyBriefView['pulse']; locale: Locale; t: Translate }) {
  const parts = [plural(t, locale, 'pulse.bookings', pulse.bookingsToday), plural(t, locale, 'pulse.leads', pulse.newLeads7d), revenueText(pulse, locale, t)];
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

function revenueText(pulse: DailyBriefView['pulse'], locale: Locale, t: Translate): string {
  const pct = pulse.revenueChangePct === null ? null : Math.round(pulse.revenueChangePct);
  if (pct === null) return pulse.bookedThisWeekCents > 0 ? t('pulse.bookedWeek', { amount: money(pulse.bookedThisWeekCents, locale) }) : t('pulse.revenueNone');
  if (pct === 0) return t('pulse.revenueSame', { amount: money(pulse.revenueThisWeekCents, locale) });
  return t(pct > 0 ? 'pulse.revenueUp' : 'pulse.revenueDown', { pct: Math.abs(pct) });
}
