'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, errorText, fieldErrorsOf } from '@/components/api/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { useToast } from '@/components/ui/toast';
import { useI18n } from '@/lib/i18n/client';
import { dayTitle, timeRange } from './format';
import { wallDate, zonedInstant } from './time';
import { bookingsKey, type AppointmentItem, type DayView } from './types';
import { useFreeStarts } from './use-free-starts';
import { WhenFields } from './when-fields';

/**
 * Moving an appointment: another day, time or staff member, from the free times. The API books the new
 * slot and cancels the old one in one transaction (the old slot goes to the waitlist), so a clash
 * changes nothing and says which appointment is in the way.
 */
export function MoveForm({
  workspaceId,
  day,
  appointment,
  now,
  onDone,
  onCancel,
}: {
  workspaceId: string;
  day: DayView;
  appointment: AppointmentItem;
  now: number;
  onDone: () => void;
  onCancel: () => void;
}) {
  const { t, locale } = useI18n();
  const toast = useToast();
  const queryClient = useQueryClient();
  const tz = day.timeZone;
  const idPrefix = `move-${appointment.id}`;
  const current = wallDate(appointment.startsAt, tz);
  const [date, setDate] = useState(current < day.today ? day.today : current);
  const [staffId, setStaffId] = useState(appointment.staffId);
  const [time, setTime] = useState('');
  const duration = (Date.parse(appointment.endsAt) - Date.parse(appointment.startsAt)) / 60_000;
  const free = useFreeStarts({ workspaceId, date, staffId, duration, excludeId: appointment.id, now, timeZone: tz });
  const chosen = free.starts.includes(time) ? time : (free.starts[0] ?? '');

  const move = useMutation({
    mutationFn: (body: { startsAt: string; staffId: string }) =>
      api<AppointmentItem>(`/api/workspaces/${workspaceId}/appointments/${appointment.id}`, { method: 'PATCH', body }),
    onSuccess: async (moved) => {
      toast(t('bookings.moved', { name: moved.customerName ?? t('bookings.erasedCustomer'), when: `${dayTitle(date, locale)}, ${timeRange(moved.startsAt, moved.endsAt, locale, tz)}`, staff: moved.staffName }));
      await queryClient.invalidateQueries({ queryKey: bookingsKey(workspaceId) });
      onDone();
    },
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (move.isPending || !chosen) return;
    move.mutate({ startsAt: zonedInstant(date, chosen, tz), staffId });
  }

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4" aria-label={t('bookings.moveNamed', { name: appointment.customerName ?? t('bookings.erasedCustomer') })}>
      {move.isError && <Alert tone="error">{errorText(move.error, t)}</Alert>}
      <WhenFields
        idPrefix={idPrefix}
        staff={day.staff}
        date={date}
        staffId={staffId}
        time={chosen}
        starts={free.starts}
        loading={free.loading}
        closed={free.closed}
        today={day.today}
        errors={fieldErrorsOf(move.error)}
        onDate={setDate}
        onStaff={setStaffId}
        onTime={setTime}
      />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" pending={move.isPending} pendingLabel={t('bookings.moving')} disabled={!chosen}>
          {t('bookings.moveSubmit')}
        </Button>
        <Button variant="ghost" onClick={onCancel}>
          {t('common.cancel')}
        </Button>
      </div>
    </form>
  );
}
