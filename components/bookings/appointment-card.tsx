'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, errorText } from '@/components/api/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { useToast } from '@/components/ui/toast';
import { useI18n } from '@/lib/i18n/client';
import { activityLines } from './activity';
import { clockTime, timeRange } from './format';
import { MoveForm } from './move-form';
import { bookingsKey, type AppointmentItem, type DayView } from './types';

const STATUS_TONE = {
  booked: 'bg-subtle text-ink',
  confirmed: 'bg-accent-soft text-accent-ink',
  completed: 'bg-success-soft text-ink',
  no_show: 'bg-danger-soft text-ink',
  cancelled: 'bg-subtle text-muted',
} as const;

type StatusChange = 'confirmed' | 'completed' | 'no_show' | 'cancelled';

/**
 * One appointment: when, who, what, its state and what the agents did for it; "Change" opens what a
 * front desk does with it — confirm, move, cancel, and once it has started, done or no-show.
 */
export function AppointmentCard({
  workspaceId,
  day,
  appointment: a,
  now,
  showStaff = false,
}: {
  workspaceId: string;
  day: DayView;
  appointment: AppointmentItem;
  now: number;
  showStaff?: boolean;
}) {
  const { t, locale } = useI18n();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  // An erased customer's bookings stay for the business's counts, without a name (lib/customers).
  const customer = a.customerName ?? t('bookings.erasedCustomer');
  const [moving, setMoving] = useState(false);
  const tz = day.timeZone;
  const titleId = `appointment-${a.id}`;
  const active = a.status === 'booked' || a.status === 'confirmed';
  const started = Date.parse(a.startsAt) <= now;
  const at = clockTime(a.startsAt, locale, tz);

  const change = useMutation({
    mutationFn: (status: StatusChange) => api<AppointmentItem>(`/api/workspaces/${workspaceId}/appointments/${a.id}`, { method: 'PATCH', body: { status } }),
    onSuccess: async (changed) => {
      toast(t(`bookings.changed.${changed.status as StatusChange}`, { name: customer, time: at }));
      setOpen(false);
      await queryClient.invalidateQueries({ queryKey: bookingsKey(workspaceId) });
    },
  });

  const lines = activityLines(a, now, locale, tz, t);

  return (
    <article aria-labelledby={titleId} className={`flex flex-col gap-2 rounded-xl border border-line bg-surface p-3 ${active ? '' : 'opacity-90'}`}>
      <div className="flex items-start justify-between gap-2">
        <h4 id={titleId} className="min-w-0 font-semibold">
          <span className="block text-sm text-muted tabular-nums">{timeRange(a.startsAt, a.endsAt, locale, tz)}</span>
          <span className="block truncate">{customer}</span>
        </h4>
        <span className={`shrink-0 rounded-full px-2.5 py-0.5 text-xs font-semibold ${STATUS_TONE[a.status]}`}>{t(`bookings.status.${a.status}`)}</span>
      </div>
      <p className="text-sm text-muted">{showStaff ? t('bookings.serviceWithStaff', { service: a.serviceName, staff: a.staffName }) : a.serviceName}</p>
      {lines.length > 0 && (
        <ul className="flex flex-col gap-0.5 text-sm" aria-label={t('bookings.activity.label')}>
          {lines.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      )}
      {active && (
        <div className="flex flex-col gap-3">
          <Button
            variant="secondary"
            className="self-start"
            aria-expanded={open}
            aria-controls={`${titleId}-actions`}
            aria-label={t('bookings.changeNamed', { name: customer, time: at })}
            onClick={() => {
              setOpen(!open);
              setMoving(false);
            }}
          >
            {t('bookings.change')}
          </Button>
          {open && (
            <div id={`${titleId}-actions`} className="flex flex-col gap-3 border-t border-line pt-3">
              {change.isError && <Alert tone="error">{errorText(change.error, t)}</Alert>}
              {moving ? (
                <MoveForm workspaceId={workspaceId} day={day} appointment={a} now={now} onDone={() => setOpen(false)} onCancel={() => setMoving(false)} />
              ) : (
                <>
                  <div className="flex flex-wrap gap-2">
                    {started ? (
                      <>
                        <Button onClick={() => change.mutate('completed')} pending={change.isPending && change.variables === 'completed'}>
                          {t('bookings.markDone')}
                        </Button>
                        <Button variant="secondary" onClick={() => change.mutate('no_show')} pending={change.isPending && change.variables === 'no_show'}>
                          {t('bookings.markNoShow')}
                        </Button>
                      </>
                    ) : (
                      a.status === 'booked' && (
                        <Button variant="secondary" onClick={() => change.mutate('confirmed')} pending={change.isPending && change.variables === 'confirmed'}>
                          {t('bookings.confirm')}
                        </Button>
                      )
                    )}
                    {!started && (
                      <Button variant="secondary" onClick={() => setMoving(true)}>
                        {t('bookings.move')}
                      </Button>
                    )}
                  </div>
                  {!started && <p className="text-sm text-muted">{t('bookings.doneLater')}</p>}
                  <ConfirmButton
                    question={t('bookings.cancelQuestion', { name: customer, time: at })}
                    confirmLabel={t('bookings.cancelConfirm')}
                    onConfirm={() => change.mutate('cancelled')}
                    pending={change.isPending && change.variables === 'cancelled'}
                  >
                    {t('bookings.cancel')}
                  </ConfirmButton>
                </>
              )}
            </div>
          )}
        </div>
      )}
    </article>
  );
}
