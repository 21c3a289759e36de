import type { Tx } from '@/lib/db';

/**
 * Calendar boundaries in the workspace's time zone, as instants. Postgres does the time-zone
 * arithmetic (DST included); queries then compare plain timestamptz ranges, which the indexes serve.
 */
export interface Periods {
  now: Date;
  /** The local date today, YYYY-MM-DD. */
  today: string;
  todayStart: Date;
  tomorrowStart: Date;
  /** The same weekday last week, for "today vs a week ago". */
  sameDayLastWeekStart: Date;
  sameDayLastWeekEnd: Date;
  /** ISO weeks: Monday 00:00. */
  weekStart: Date;
  nextWeekStart: Date;
  lastWeekStart: Date;
  monthStart: Date;
  lastMonthStart: Date;
  /** Now minus one local month: the end of "last month so far". */
  lastMonthSameTime: Date;
  /** The workspace's sector (null when the workspace is not visible to the caller). */
  sector: string | null;
}

export async function loadPeriods(tx: Tx, workspaceId: string, now: Date, timeZone: string): Promise<Periods> {
  const [row] = await tx.query<Omit<Periods, 'now'>>(
    `select to_char(l, 'YYYY-MM-DD') as "today",
            date_trunc('day', l) at time zone $2 as "todayStart",
            (date_trunc('day', l) + interval '1 day') at time zone $2 as "tomorrowStart",
            (date_trunc('day', l) - interval '7 days') at time zone $2 as "sameDayLastWeekStart",
            (date_trunc('day', l) - interval '6 days') at time zone $2 as "sameDayLastWeekEnd",
            date_trunc('week', l) at time zone $2 as "weekStart",
            (date_trunc('week', l) + interval '7 days') at time zone $2 as "nextWeekStart",
            (date_trunc('week', l) - interval '7 days') at time zone $2 as "lastWeekStart",
            date_trunc('month', l) at time zone $2 as "monthStart",
            (date_trunc('month', l) - interval '1 month') at time zone $2 as "lastMonthStart",
            (l - interval '1 month') at time zone $2 as "lastMonthSameTime",
            (select sector from public.workspaces where id = $3) as "sector"
       from (select $1::timestamptz at time zone $2 as l) local_now`,
    [now.toISOString(), timeZone, workspaceId],
  );
  return { now, ...row! };
}

/** An instant `days` whole days (of 24 h) before `from`: rolling windows are absolute, not calendar. */
export const daysBefore = (from: Date, days: number) => new Date(from.getTime() - days * 86_400_000);

/** Dates as query parameters (cast with `::timestamptz` in SQL). */
export const at = (d: Date) => d.toISOString();
