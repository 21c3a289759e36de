'use client';

import Link from 'next/link';
import { plural } from '@/lib/i18n';
import { useI18n } from '@/lib/i18n/client';
import { dayTitle } from './format';
import type { WeekView } from './types';

/** Monday to Sunday at a glance: how full each day is, per staff member, and who waits; a day opens its agenda. */
export function WeekOverview({ workspaceId, week }: { workspaceId: string; week: WeekView }) {
  const { t, locale } = useI18n();
  const names = new Map(week.staff.map((s) => [s.id, s.name]));
  return (
    <ul className="flex flex-col gap-2">
      {week.days.map((d) => (
        <li key={d.date}>
          <Link
            href={`/w/${workspaceId}/bookings?date=${d.date}`}
            aria-current={d.date === week.today ? 'date' : undefined}
            className={`flex flex-col gap-1 rounded-2xl border bg-surface px-4 py-3 hover:bg-subtle ${d.date === week.today ? 'border-accent' : 'border-line'}`}
          >
            <span className="flex items-baseline justify-between gap-3">
              <span className="font-semibold">
                {dayTitle(d.date, locale)}
                {d.date === week.today && <span className="ml-2 text-sm font-normal text-accent-ink">{t('bookings.today')}</span>}
              </span>
              <span className="shrink-0 text-sm text-muted tabular-nums">{d.open || d.booked > 0 ? plural(t, locale, 'bookings.count', d.booked) : t('bookings.closed')}</span>
            </span>
            {d.byStaff.length > 0 && (
              <span className="text-sm text-muted">{d.byStaff.map((s) => `${names.get(s.staffId) ?? '?'} ${s.booked}`).join(' · ')}</span>
            )}
            {(d.cancelled > 0 || d.waiting > 0) && (
              <span className="text-sm text-muted">
                {[d.cancelled > 0 ? plural(t, locale, 'bookings.cancelledCount', d.cancelled) : '', d.waiting > 0 ? plural(t, locale, 'bookings.waitingCount', d.waiting) : '']
                  .filter(Boolean)
                  .join(' · ')}
              </span>
            )}
          </Link>
        </li>
      ))}
    </ul>
  );
}
