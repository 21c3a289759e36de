/**
 * Wall-clock time in the workspace's zone, for the Bookings screen (pure, no React). A day is a
 * calendar date "YYYY-MM-DD"; a time of day is "HH:MM"; instants travel as ISO strings. The zone comes
 * from the workspace, never from the browser.
 */

const parts = (instant: number, timeZone: string) =>
  Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' })
      .formatToParts(new Date(instant))
      .map((p) => [p.type, Number(p.value)]),
  ) as Record<'year' | 'month' | 'day' | 'hour' | 'minute', number>;

/** How far `timeZone`'s wall clock is ahead of UTC at `instant`, in ms. */
function offsetAt(instant: number, timeZone: string): number {
  const p = parts(instant, timeZone);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute) - Math.floor(instant / 60_000) * 60_000;
}

/** The instant a wall-clock time of a day is in the zone (ISO). Twice, so a time next to a DST change lands on the right offset. */
export function zonedInstant(date: string, time: string, timeZone: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [hh, mm] = time.split(':').map(Number) as [number, number];
  const wall = Date.UTC(y, m - 1, d, hh, mm);
  let guess = wall - offsetAt(wall, timeZone);
  guess = wall - offsetAt(guess, timeZone);
  return new Date(guess).toISOString();
}

/** "HH:MM" of an instant in the zone. */
export function wallTime(instant: string, timeZone: string): string {
  const p = parts(Date.parse(instant), timeZone);
  return `${String(p.hour).padStart(2, '0')}:${String(p.minute).padStart(2, '0')}`;
}

/** The calendar date of an instant in the zone. */
export function wallDate(instant: string | number, timeZone: string): string {
  const p = parts(typeof instant === 'number' ? instant : Date.parse(instant), timeZone);
  return `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
}

export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

const minutes = (time: string) => {
  const [h, m] = time.split(':').map(Number) as [number, number];
  return h * 60 + m;
};
const clock = (total: number) => `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;

/** Where free times are looked for when the workspace keeps no opening hours. */
const WHOLE_DAY = [{ opens: '08:00', closes: '20:00' }];
export const SLOT_STEP_MINUTES = 15;

/**
 * The start times ("HH:MM", every 15 minutes) at which a service of `duration` minutes fits: inside the
 * opening hours (null: none kept, 08:00–20:00 offered), clear of the staff member's other appointments
 * (`busy`, wall-clock), and not before `earliest` (now, on today). The server checks again and has the
 * last word (a booking made meanwhile is a 409).
 */
export function freeStarts(
  hours: { opens: string; closes: string }[] | null,
  busy: { start: string; end: string }[],
  duration: number,
  earliest?: string,
): string[] {
  const taken = busy.map((b) => [minutes(b.start), minutes(b.end)] as const);
  const from = earliest ? minutes(earliest) : 0;
  const starts: string[] = [];
  for (const h of hours ?? WHOLE_DAY) {
    for (let t = minutes(h.opens); t + duration <= minutes(h.closes); t += SLOT_STEP_MINUTES) {
      if (t < from) continue;
      if (taken.some(([s, e]) => s < t + duration && e > t)) continue;
      starts.push(clock(t));
    }
  }
  return starts;
}
