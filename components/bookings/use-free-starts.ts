'use client';

import { useQuery } from '@tanstack/react-query';
import { api } from '@/components/api/client';
import { freeStarts, wallDate, wallTime } from './time';
import { dayKey, dayPath, holdsSlot, type DayView } from './types';

/**
 * The start times a staff member is free for `duration` minutes on `date`, from that day's agenda (the
 * screen's own query, so the day on screen costs nothing more); past times of today are left out.
 */
export function useFreeStarts({
  workspaceId,
  date,
  staffId,
  duration,
  excludeId,
  now,
  timeZone,
}: {
  workspaceId: string;
  date: string;
  staffId: string;
  duration: number;
  excludeId?: string;
  now: number;
  timeZone: string;
}): { starts: string[]; loading: boolean; closed: boolean } {
  const valid = /^\d{4}-\d{2}-\d{2}$/.test(date);
  const day = useQuery({ queryKey: dayKey(workspaceId, date), queryFn: () => api<DayView>(dayPath(workspaceId, date)), enabled: valid });
  if (!valid || !day.data) return { starts: [], loading: valid && day.isPending, closed: false };
  const today = wallDate(now, timeZone);
  if (date < today) return { starts: [], loading: false, closed: false };
  const busy = day.data.appointments
    .filter((a) => holdsSlot(a) && a.staffId === staffId && a.id !== excludeId)
    .map((a) => ({ start: wallTime(a.startsAt, timeZone), end: wallDate(a.endsAt, timeZone) > date ? '24:00' : wallTime(a.endsAt, timeZone) }));
  const earliest = date === today ? wallTime(new Date(now + 60_000).toISOString(), timeZone) : undefined;
  return {
    starts: freeStarts(day.data.openingHours, busy, duration, earliest),
    loading: false,
    closed: day.data.openingHours !== null && day.data.openingHours.length === 0,
  };
}
