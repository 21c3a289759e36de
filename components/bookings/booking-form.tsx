'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useDeferredValue, useState, type FormEvent } from 'react';
import { api, errorText, fieldErrorsOf } from '@/components/api/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { SelectField, TextField } from '@/components/ui/field';
import { useToast } from '@/components/ui/toast';
import { useI18n } from '@/lib/i18n/client';
import { dayTitle, timeRange } from './format';
import { zonedInstant } from './time';
import { bookingsKey, type AppointmentItem, type CustomerItem, type DayView } from './types';
import { useFreeStarts } from './use-free-starts';
import { WhenFields } from './when-fields';

/**
 * A new booking: find the customer, pick the service, the staff member, the day and one of the free
 * times. `draft` prefills it from a waitlist entry, which the booking then takes off the waitlist. The server has the last word:
 * a slot taken meanwhile comes back as its 409, shown above the button.
 */
export function BookingForm({
  workspaceId,
  day,
  now,
  draft,
  onDone,
}: {
  workspaceId: string;
  day: DayView;
  now: number;
  draft?: { customer: CustomerItem; serviceId: string; waitlistEntryId: string };
  onDone: () => void;
}) {
  const { t, locale } = useI18n();
  const toast = useToast();
  const queryClient = useQueryClient();
  const tz = day.timeZone;
  const [search, setSearch] = useState(draft?.customer.name ?? '');
  const [customer, setCustomer] = useState<CustomerItem | null>(draft?.customer ?? null);
  const [serviceId, setServiceId] = useState(draft?.serviceId ?? day.services[0]?.id ?? '');
  const [staffId, setStaffId] = useState(day.staff.find((s) => s.active)?.id ?? '');
  const [date, setDate] = useState(day.date < day.today ? day.today : day.date);
  const [time, setTime] = useState('');
  const [missingCustomer, setMissingCustomer] = useState(false);
  const query = useDeferredValue(search.trim());
  const customers = useQuery({
    queryKey: [...bookingsKey(workspaceId), 'customers', query],
    queryFn: () => api<CustomerItem[]>(`/api/workspaces/${workspaceId}/appointments/customers?q=${encodeURIComponent(query)}`),
  });
  const service = day.services.find((s) => s.id === serviceId);
  const free = useFreeStarts({ workspaceId, date, staffId, duration: service?.durationMinutes ?? 30, now, timeZone: tz });
  const chosen = free.starts.includes(time) ? time : (free.starts[0] ?? '');

  const book = useMutation({
    mutationFn: (body: { customerId: string; serviceId: string; staffId: string; startsAt: string; waitlistEntryId?: string }) =>
      api<AppointmentItem>(`/api/workspaces/${workspaceId}/appointments`, { body }),
    onSuccess: async (created) => {
      toast(t('bookings.booked', { name: created.customerName ?? t('bookings.erasedCustomer'), when: `${dayTitle(date, locale)}, ${timeRange(created.startsAt, created.endsAt, locale, tz)}` }));
      await queryClient.invalidateQueries({ queryKey: bookingsKey(workspaceId) });
      onDone();
    },
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (book.isPending) return;
    setMissingCustomer(!customer);
    if (!customer || !chosen || !serviceId || !staffId) return;
    book.mutate({
      customerId: customer.id,
      serviceId,
      staffId,
      startsAt: zonedInstant(date, chosen, tz),
      // The waitlist entry is taken only while its customer is the one booked.
      waitlistEntryId: draft && draft.customer.id === customer.id ? draft.waitlistEntryId : undefined,
    });
  }

  const fieldErrors = fieldErrorsOf(book.error);
  const listed = customers.data ?? [];
  const options = customer && !listed.some((c) => c.id === customer.id) ? [customer, ...listed] : listed;

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4" aria-labelledby="new-booking-title">
      {book.isError && <Alert tone="error">{errorText(book.error, t)}</Alert>}
      <TextField
        id="booking-search"
        label={t('bookings.form.findCustomer')}
        hint={t('bookings.form.findCustomerHint')}
        type="search"
        autoComplete="off"
        value={search}
        maxLength={80}
        onChange={(event) => setSearch(event.target.value)}
      />
      <fieldset className="flex flex-col gap-1.5" aria-describedby={missingCustomer || fieldErrors.customerId ? 'booking-customer-error' : undefined}>
        <legend className="mb-1.5 text-sm font-semibold">{t('bookings.form.customer')}</legend>
        {options.length === 0 ? (
          <p className="text-[0.9375rem] text-muted">{customers.isPending ? t('bookings.form.searching') : t('bookings.form.noCustomers')}</p>
        ) : (
          <ul className="flex max-h-64 flex-col gap-1 overflow-y-auto rounded-xl border border-line p-1">
            {options.map((c) => (
              <li key={c.id}>
                <label className="flex min-h-11 cursor-pointer items-center gap-3 rounded-lg px-3 hover:bg-subtle has-checked:bg-accent-soft">
                  <input type="radio" name="booking-customer" value={c.id} checked={customer?.id === c.id} onChange={() => setCustomer(c)} className="size-4" />
                  <span className="min-w-0">
                    <span className="block truncate font-medium">{c.name}</span>
                    {(c.phone || c.email) && <span className="block truncate text-sm text-muted">{c.phone ?? c.email}</span>}
                  </span>
                </label>
              </li>
            ))}
          </ul>
        )}
        {(missingCustomer || fieldErrors.customerId) && (
          <p id="booking-customer-error" className="text-sm font-medium text-danger">
            {fieldErrors.customerId?.join(' ') ?? t('bookings.form.pickCustomer')}
          </p>
        )}
      </fieldset>
      <SelectField
        id="booking-service"
        label={t('bookings.form.service')}
        value={serviceId}
        onChange={(event) => setServiceId(event.target.value)}
        errors={fieldErrors.serviceId}
        options={day.services.map((s) => ({ value: s.id, label: t('bookings.form.serviceOption', { name: s.name, minutes: s.durationMinutes }) }))}
      />
      <WhenFields
        idPrefix="booking"
        staff={day.staff}
        date={date}
        staffId={staffId}
        time={chosen}
        starts={free.starts}
        loading={free.loading}
        closed={free.closed}
        today={day.today}
        errors={fieldErrors}
        onDate={setDate}
        onStaff={setStaffId}
        onTime={setTime}
      />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" pending={book.isPending} pendingLabel={t('bookings.form.booking')} disabled={!chosen}>
          {t('bookings.form.book')}
        </Button>
        <Button variant="ghost" onClick={onDone}>
          {t('common.cancel')}
        </Button>
      </div>
    </form>
  );
}
