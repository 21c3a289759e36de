'use client';

import Link from 'next/link';
import { useEffect, useState } from 'react';
import { buttonClass } from '@/components/ui/button';
import { ChevronLeftIcon, ChevronRightIcon } from '@/components/ui/icons';
import { useI18n } from '@/lib/i18n/client';
import { DayAgenda } from './day-agenda';
import { dayTitle } from './format';
import { addDays } from './time';
import type { DayView, WeekView } from './types';
import { WeekOverview } from './week-overview';

type Props = { workspaceId: string; now: string } & ({ view: 'day'; day: DayView } | { view: 'week'; week: WeekView });

/**
 * Bookings: a day per staff member or the week, with the way between days. The date and the view live
 * in the URL (`?date=YYYY-MM-DD&view=week`), so a reload or a shared link opens the same page. `now`
 * starts as the server's clock, so the first render matches, then follows the browser's each minute
 * (what has started can be marked done).
 */
export function BookingsScreen(props: Props) {
  const { t, locale } = useI18n();
  const now = useNow(props.now);
  const base = `/w/${props.workspaceId}/bookings`;
  const date = props.view === 'day' ? props.day.date : props.week.start;
  const today = props.view === 'day' ? props.day.today : props.week.today;
  const step = props.view === 'day' ? 1 : 7;
  const href = (d: string, view = props.view) => `${base}?date=${d}${view === 'week' ? '&view=week' : ''}`;
  const title = props.view === 'day' ? dayTitle(date, locale) : t('bookings.weekOf', { day: dayTitle(date, locale) });

  return (
    <div className="flex flex-col gap-5">
      <nav aria-label={t('bookings.viewNav')} className="flex gap-1 rounded-xl bg-subtle p-1">
        {(['day', 'week'] as const).map((view) => (
          <Link
            key={view}
            href={href(props.view === 'week' && view === 'day' ? (today >= date && today < addDays(date, 7) ? today : date) : date, view)}
            aria-current={props.view === view ? 'page' : undefined}
            className={`flex min-h-11 flex-1 items-center justify-center rounded-lg text-[0.9375rem] font-semibold ${
              props.view === view ? 'bg-surface text-ink shadow-card' : 'text-muted hover:text-ink'
            }`}
          >
            {t(`bookings.view.${view}`)}
          </Link>
        ))}
      </nav>

      <div className="flex flex-col gap-3">
        <h2 className="text-xl font-semibold text-balance">{title}</h2>
        <div className="flex flex-wrap items-center gap-2">
          <Link href={href(addDays(date, -step))} className={buttonClass('secondary', 'px-3')} aria-label={t(props.view === 'day' ? 'bookings.previousDay' : 'bookings.previousWeek')}>
            <ChevronLeftIcon />
          </Link>
          <Link href={href(today)} className={buttonClass('secondary')} aria-current={date === today ? 'date' : undefined}>
            {t('bookings.today')}
          </Link>
          <Link href={href(addDays(date, step))} className={buttonClass('secondary', 'px-3')} aria-label={t(props.view === 'day' ? 'bookings.nextDay' : 'bookings.nextWeek')}>
            <ChevronRightIcon />
          </Link>
          <form action={base} className="flex items-center gap-2">
            {props.view === 'week' && <input type="hidden" name="view" value="week" />}
            <label htmlFor="bookings-go-date" className="sr-only">
              {t('bookings.pickDate')}
            </label>
            <input id="bookings-go-date" name="date" type="date" defaultValue={date} required className="min-h-11 rounded-xl border border-line-strong bg-surface px-3 text-base" />
            <button type="submit" className={buttonClass('ghost')}>
              {t('bookings.go')}
            </button>
          </form>
        </div>
      </div>

      {props.view === 'day' ? (
        <DayAgenda key={props.day.date} workspaceId={props.workspaceId} initial={props.day} now={now} />
      ) : (
        <WeekOverview workspaceId={props.workspaceId} week={props.week} />
      )}
    </div>
  );
}

function useNow(serverNow: string): number {
  const [now, setNow] = useState(() => Date.parse(serverNow));
  useEffect(() => {
    const tick = () => setNow(Date.now());
    tick();
    const timer = setInterval(tick, 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}
