'use client';

import { SelectField, TextField } from '@/components/ui/field';
import { useI18n } from '@/lib/i18n/client';
import { wallClock } from './format';
import type { DayView } from './types';

/** Day, staff member and a free start time: the part the booking and the move forms share. */
export function WhenFields({
  idPrefix,
  staff,
  date,
  staffId,
  time,
  starts,
  loading,
  closed,
  today,
  errors,
  onDate,
  onStaff,
  onTime,
}: {
  idPrefix: string;
  staff: DayView['staff'];
  date: string;
  staffId: string;
  /** The time chosen: one of `starts`, or '' when there is none. */
  time: string;
  starts: string[];
  loading: boolean;
  closed: boolean;
  today: string;
  errors: Record<string, string[] | undefined>;
  onDate: (date: string) => void;
  onStaff: (staffId: string) => void;
  onTime: (time: string) => void;
}) {
  const { t, locale } = useI18n();
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          id={`${idPrefix}-date`}
          label={t('bookings.form.date')}
          type="date"
          min={today}
          value={date}
          onChange={(event) => onDate(event.target.value)}
          errors={errors.date}
          required
        />
        <SelectField
          id={`${idPrefix}-staff`}
          label={t('bookings.form.staff')}
          value={staffId}
          onChange={(event) => onStaff(event.target.value)}
          errors={errors.staffId}
          options={staff.filter((s) => s.active).map((s) => ({ value: s.id, label: s.name }))}
        />
      </div>
      {starts.length > 0 ? (
        <SelectField
          id={`${idPrefix}-time`}
          label={t('bookings.form.time')}
          hint={t('bookings.form.timeHint')}
          value={time}
          onChange={(event) => onTime(event.target.value)}
          errors={errors.startsAt}
          options={starts.map((s) => ({ value: s, label: wallClock(s, locale) }))}
        />
      ) : (
        <p id={`${idPrefix}-time`} className="text-[0.9375rem] text-muted" role="status">
          {loading ? t('bookings.form.loadingTimes') : closed ? t('bookings.form.closed') : t('bookings.form.noTimes')}
        </p>
      )}
    </>
  );
}
