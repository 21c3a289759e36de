import type { Tx } from '@/lib/db';

/**
 * No message reaches a customer between 21:00 and 08:00 in the workspace's time zone (MyTime's rule
 * for texts; reminders included, since a 24-hour reminder is never urgent enough to wake someone).
 */
export const QUIET_HOURS = { start: '21:00', end: '08:00' } as const;

/**
 * `instant`, or the end of the quiet hours it falls in (08:00 local, the next morning when it is
 * evening). Postgres does the zone arithmetic, DST included.
 */
export async function outOfQuietHours(tx: Tx, instant: Date, timeZone: string): Promise<Date> {
  const [row] = await tx.query<{ at: Date }>(
    `select case
              when l::time >= $3::time then ((l::date + 1) + $4::time) at time zone $2
              when l::time < $4::time then (l::date + $4::time) at time zone $2
              else $1::timestamptz
            end as at
       from (select $1::timestamptz at time zone $2 as l) local_instant`,
    [instant.toISOString(), timeZone, QUIET_HOURS.start, QUIET_HOURS.end],
  );
  return new Date(row!.at);
}
