'use client';

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '@/components/api/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { PlusIcon } from '@/components/ui/icons';
import { plural } from '@/lib/i18n';
import { useI18n } from '@/lib/i18n/client';
import { AppointmentCard } from './appointment-card';
import { BookingForm } from './booking-form';
import { shortDay, timeRange } from './format';
import { wallDate } from './time';
import { dayKey, dayPath, holdsSlot, type CustomerItem, type DayView } from './types';

/**
 * A day: a column per staff member (stacked on a phone), the cancelled appointments and what became of
 * their slots, the waitlist of the day, and the form to book.
 */
export function DayAgenda({ workspaceId, initial, now }: { workspaceId: string; initial: DayView; now: number }) {
  const { t, locale } = useI18n();
  const day = useQuery({ queryKey: dayKey(workspaceId, initial.date), queryFn: () => api<DayView>(dayPath(workspaceId, initial.date)), initialData: initial }).data;
  const [booking, setBooking] = useState<{ draft?: { customer: CustomerItem; serviceId: string; waitlistEntryId: string } } | null>(null);
  const tz = day.timeZone;
  const cancelled = day.appointments.filter((a) => !holdsSlot(a));
  const closed = day.openingHours !== null && day.openingHours.length === 0;
  const canBook = day.date >= day.today && day.services.length > 0 && day.staff.some((s) => s.active);

  return (
    <div className="flex flex-col gap-6">
      {closed && <Alert>{t('bookings.closedDay')}</Alert>}
      {canBook &&
        (booking ? (
          <Card>
            <h3 id="new-booking-title" className="mb-4 text-lg font-semibold">
              {t('bookings.newBooking')}
            </h3>
            <BookingForm key={booking.draft?.waitlistEntryId ?? 'new'} workspaceId={workspaceId} day={day} now={now} draft={booking.draft} onDone={() => setBooking(null)} />
          </Card>
        ) : (
          <Button className="self-start" onClick={() => setBooking({})}>
            <PlusIcon />
            {t('bookings.newBooking')}
          </Button>
        ))}

      {day.staff.length === 0 ? (
        <p className="text-[0.9375rem] text-pretty text-muted">{t('bookings.noStaff')}</p>
      ) : (
        <div className="grid gap-4 sm:grid-cols-2">
          {day.staff.map((s) => {
            const list = day.appointments.filter((a) => a.staffId === s.id && holdsSlot(a));
            return (
              <section key={s.id} aria-labelledby={`staff-${s.id}`} className="flex flex-col gap-2">
                <h3 id={`staff-${s.id}`} className="flex items-baseline justify-between gap-2 px-1 font-semibold">
                  <span className="truncate">{s.name}</span>
                  <span className="shrink-0 text-sm font-normal text-muted">{plural(t, locale, 'bookings.count', list.length)}</span>
                </h3>
                {list.length === 0 ? (
                  <p className="rounded-xl border border-dashed border-line-strong/50 px-3 py-4 text-sm text-muted">{t('bookings.nothingBooked')}</p>
                ) : (
                  <ul className="flex flex-col gap-2">
                    {list.map((a) => (
                      <li key={a.id}>
                        <AppointmentCard workspaceId={workspaceId} day={day} appointment={a} now={now} />
                      </li>
                    ))}
                  </ul>
                )}
              </section>
            );
          })}
        </div>
      )}

      {cancelled.length > 0 && (
        <details className="rounded-2xl border border-line bg-surface p-4">
          <summary className="min-h-11 cursor-pointer content-center font-semibold">{plural(t, locale, 'bookings.cancelledCount', cancelled.length)}</summary>
          <ul className="mt-3 flex flex-col gap-2">
            {cancelled.map((a) => (
              <li key={a.id}>
                <AppointmentCard workspaceId={workspaceId} day={day} appointment={a} now={now} showStaff />
              </li>
            ))}
          </ul>
        </details>
      )}

      <section aria-labelledby="waitlist-title" className="flex flex-col gap-2">
        <h3 id="waitlist-title" className="px-1 text-lg font-semibold">
          {t('bookings.waitlist.title')}
        </h3>
        {day.waitlist.length === 0 ? (
          <p className="px-1 text-[0.9375rem] text-muted">{t('bookings.waitlist.empty')}</p>
        ) : (
          <ul className="divide-y divide-line overflow-hidden rounded-2xl border border-line bg-surface">
            {day.waitlist.map((w) => {
              const sameDay = wallDate(w.windowStart, tz) === wallDate(w.windowEnd, tz);
              const window = sameDay
                ? timeRange(w.windowStart, w.windowEnd, locale, tz)
                : t('bookings.waitlist.days', { from: shortDay(wallDate(w.windowStart, tz), locale), to: shortDay(wallDate(w.windowEnd, tz), locale) });
              return (
                <li key={w.id} className="flex flex-col gap-1 px-4 py-3 sm:flex-row sm:items-center sm:justify-between">
                  <div className="min-w-0">
                    <p className="font-medium">{w.customerName}</p>
                    <p className="text-sm text-muted">
                      {t('bookings.waitlist.wants', { service: w.serviceName, window })} · {t(`bookings.waitlist.status.${w.status}`)}
                    </p>
                  </div>
                  {w.status === 'waiting' && canBook && (
                    <Button
                      variant="secondary"
                      className="self-start sm:self-center"
                      aria-label={t('bookings.waitlist.bookNamed', { name: w.customerName })}
                      onClick={() => {
                        setBooking({ draft: { customer: { id: w.customerId, name: w.customerName, phone: null, email: null }, serviceId: w.serviceId, waitlistEntryId: w.id } });
                        requestAnimationFrame(() => document.getElementById('new-booking-title')?.scrollIntoView({ block: 'start' }));
                      }}
                    >
                      {t('bookings.waitlist.book')}
                    </Button>
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </section>
    </div>
  );
}
