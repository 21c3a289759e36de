'use client';

import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useEffect, useRef, useState, useTransition, type FormEvent, type ReactNode } from 'react';
import { api, errorText, fieldErrorsOf } from '@/components/api/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { SelectField, TextField } from '@/components/ui/field';
import { WORKSPACE_LOCALES } from '@/components/workspaces/options';
import type { Option } from '@/components/workspaces/types';
import type { Wire } from '@/lib/api';
import { useI18n } from '@/lib/i18n/client';
import type { MessageKey } from '@/lib/i18n';
import type { Onboarding, OnboardingStep } from '@/lib/onboarding';

type State = Wire<Onboarding>;
type Service = { name: string; durationMinutes: number; priceCents: number };
type Hours = { weekday: number; opens: string; closes: string };

/** The screens, as lib/onboarding ONBOARDING_STEPS lists them (type-only import: that module is server code). */
const STEPS: OnboardingStep[] = ['business', 'sector', 'place', 'hours', 'services', 'staff', 'team', 'autonomy'];
const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;
/** Monday to Saturday, 9 to 19: the usual week of a small Italian business, for the owner to correct. */
const DEFAULT_HOURS: Hours[] = [1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, opens: '09:00', closes: '19:00' }));

const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

export function OnboardingFlow({
  initial,
  sectors,
  timeZones,
  starters,
}: {
  initial: State | null;
  sectors: Option[];
  timeZones: Option[];
  starters: Record<string, Service[]>;
}) {
  const { t, locale } = useI18n();
  const router = useRouter();
  const [navigating, startNavigation] = useTransition();
  const [state, setState] = useState<State | null>(initial);
  const [step, setStep] = useState<OnboardingStep>(initial?.step ?? 'business');
  const answers = state?.answers ?? {};
  const headingRef = useRef<HTMLHeadingElement>(null);
  const firstRender = useRef(true);

  // Each screen is a new page to a screen reader: move focus to its heading (not on first load).
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    headingRef.current?.focus();
  }, [step]);

  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) => api<State>('/api/onboarding', { method: 'PUT', body }),
    onSuccess: (next) => {
      setState(next);
      setStep(next.step);
    },
  });
  const finish = useMutation({
    mutationFn: () => api<{ workspaceId: string }>('/api/onboarding/finish', { body: {} }),
    onSuccess: ({ workspaceId }) => startNavigation(() => router.push(`/w/${workspaceId}`)),
  });
  const skip = useMutation({
    mutationFn: () => api<{ personalWorkspaceId: string }>('/api/onboarding/skip', { body: {} }),
    onSuccess: ({ personalWorkspaceId }) => startNavigation(() => router.push(`/w/${personalWorkspaceId}`)),
  });
  const busy = save.isPending || finish.isPending || finish.isSuccess || skip.isPending || skip.isSuccess || navigating;
  const errors = fieldErrorsOf(save.error ?? finish.error);
  const failure = save.error ?? finish.error ?? skip.error;

  const index = STEPS.indexOf(step);
  const back = index > 0 ? () => setStep(STEPS[index - 1]!) : undefined;
  const submit = (body: Record<string, unknown>) => (event: FormEvent) => {
    event.preventDefault();
    if (!busy) save.mutate({ step, ...body });
  };

  return (
    <div className="flex flex-col gap-5">
      <div className="flex items-center justify-between gap-3">
        <p className="text-sm font-semibold text-accent-ink">{t('onboarding.progress', { step: index + 1, total: STEPS.length })}</p>
        <Button variant="ghost" onClick={() => skip.mutate()} disabled={busy} className="-mr-2 text-accent-ink underline-offset-4 hover:underline">
          {t('onboarding.skip')}
        </Button>
      </div>
      <div
        role="progressbar"
        aria-label={t('onboarding.progressLabel')}
        aria-valuemin={1}
        aria-valuemax={STEPS.length}
        aria-valuenow={index + 1}
        className="h-1.5 overflow-hidden rounded-full bg-subtle"
      >
        <div className="h-full rounded-full bg-accent" style={{ width: `${((index + 1) / STEPS.length) * 100}%` }} />
      </div>
      {failure && !Object.keys(errors).length && <Alert tone="error">{errorText(failure, t)}</Alert>}

      {step === 'business' && (
        <BusinessStep key={step} headingRef={headingRef} initial={answers.name ?? ''} errors={errors} busy={busy} onSubmit={submit} />
      )}
      {step === 'sector' && (
        <SectorStep key={step} headingRef={headingRef} sectors={sectors} initial={answers.sector ?? ''} busy={busy} back={back} onSubmit={submit} errors={errors} />
      )}
      {step === 'place' && (
        <PlaceStep
          key={step}
          headingRef={headingRef}
          timeZones={timeZones}
          initial={{ timeZone: answers.timeZone ?? browserTimeZone(), locale: answers.locale ?? locale }}
          busy={busy}
          back={back}
          onSubmit={submit}
          errors={errors}
        />
      )}
      {step === 'hours' && <HoursStep key={step} headingRef={headingRef} initial={answers.hours ?? DEFAULT_HOURS} busy={busy} back={back} onSubmit={submit} errors={errors} />}
      {step === 'services' && (
        <ServicesStep
          key={step}
          headingRef={headingRef}
          initial={answers.services ?? starters[answers.sector ?? 'other'] ?? []}
          busy={busy}
          back={back}
          onSubmit={submit}
          errors={errors}
        />
      )}
      {step === 'staff' && <StaffStep key={step} headingRef={headingRef} initial={answers.staff ?? []} busy={busy} back={back} onSubmit={submit} errors={errors} />}
      {step === 'team' && (
        <Screen headingRef={headingRef} title={t('onboarding.team.title')} lead={t('onboarding.team.lead')}>
          <form onSubmit={submit({})} className="flex flex-col gap-4">
            <ul className="flex flex-col gap-3">
              {(state?.team ?? []).map((agent) => (
                <li key={agent.name} className="rounded-2xl border border-line bg-surface p-4">
                  <p className="font-semibold">{agent.name}</p>
                  <p className="text-sm text-muted">{agent.role}</p>
                  <p className="mt-2 text-[0.9375rem] text-pretty">{agent.instructions}</p>
                </li>
              ))}
            </ul>
            <p className="text-sm text-muted">{t('onboarding.team.editLater')}</p>
            <Nav back={back} busy={busy} next={t('onboarding.next')} />
          </form>
        </Screen>
      )}
      {step === 'autonomy' && (
        <Screen headingRef={headingRef} title={t('onboarding.autonomy.title')} lead={t('onboarding.autonomy.lead')}>
          <form
            onSubmit={(event) => {
              event.preventDefault();
              if (!busy) finish.mutate();
            }}
            className="flex flex-col gap-4"
          >
            <dl className="flex flex-col gap-3">
              {(['off', 'propose', 'auto'] as const).map((level) => (
                <div key={level} className={`rounded-2xl border p-4 ${level === 'propose' ? 'border-accent bg-accent-soft' : 'border-line bg-surface'}`}>
                  <dt className="font-semibold">
                    {t(`onboarding.autonomy.${level}` as MessageKey)}
                    {level === 'propose' && <span className="ml-2 text-sm font-semibold text-accent-ink">{t('onboarding.autonomy.startsHere')}</span>}
                  </dt>
                  <dd className="mt-1 text-[0.9375rem] text-pretty">{t(`onboarding.autonomy.${level}.description` as MessageKey)}</dd>
                </div>
              ))}
            </dl>
            <p className="text-[0.9375rem] text-pretty">{t('onboarding.autonomy.everythingAsks')}</p>
            {Object.keys(errors).length > 0 && <Alert tone="error">{t('onboarding.autonomy.incomplete')}</Alert>}
            <Nav back={back} busy={busy} next={t('onboarding.create')} pending={t('onboarding.creating')} />
          </form>
        </Screen>
      )}
    </div>
  );
}

type StepProps<T> = {
  headingRef: React.RefObject<HTMLHeadingElement | null>;
  initial: T;
  busy: boolean;
  back?: () => void;
  errors: Record<string, string[]>;
  onSubmit: (body: Record<string, unknown>) => (event: FormEvent) => void;
};

function Screen({ headingRef, title, lead, children }: { headingRef: StepProps<unknown>['headingRef']; title: string; lead: string; children: ReactNode }) {
  return (
    <section aria-labelledby="onboarding-title" className="flex flex-col gap-4">
      <div>
        <h1 id="onboarding-title" ref={headingRef} tabIndex={-1} className="text-2xl font-bold tracking-tight text-balance outline-none sm:text-3xl">
          {title}
        </h1>
        <p className="mt-1 text-[0.9375rem] text-pretty text-muted">{lead}</p>
      </div>
      {children}
    </section>
  );
}

function Nav({ back, busy, next, pending, ready = true }: { back?: () => void; busy: boolean; next: string; pending?: string; ready?: boolean }) {
  const { t } = useI18n();
  return (
    <div className="mt-2 flex flex-wrap-reverse justify-between gap-3">
      {back ? (
        <Button variant="secondary" onClick={back} disabled={busy}>
          {t('onboarding.back')}
        </Button>
      ) : (
        <span />
      )}
      <Button type="submit" pending={busy} pendingLabel={pending ?? t('onboarding.saving')} disabled={!ready}>
        {next}
      </Button>
    </div>
  );
}

function BusinessStep({ headingRef, initial, busy, errors, onSubmit }: StepProps<string>) {
  const { t } = useI18n();
  const [name, setName] = useState(initial);
  return (
    <Screen headingRef={headingRef} title={t('onboarding.business.title')} lead={t('onboarding.business.lead')}>
      <form onSubmit={onSubmit({ name: name.trim() })} noValidate className="flex flex-col gap-4">
        <TextField
          id="name"
          label={t('onboarding.business.name')}
          autoComplete="organization"
          maxLength={80}
          required
          value={name}
          onChange={(event) => setName(event.target.value)}
          errors={errors.name}
        />
        <Nav busy={busy} next={t('onboarding.next')} />
      </form>
    </Screen>
  );
}

function SectorStep({ headingRef, initial, busy, back, errors, onSubmit, sectors }: StepProps<string> & { sectors: Option[] }) {
  const { t } = useI18n();
  const [sector, setSector] = useState(initial);
  const [query, setQuery] = useState('');
  const needle = query.trim().toLocaleLowerCase();
  const shown = sectors.filter((option) => option.value === sector || option.label.toLocaleLowerCase().includes(needle));
  return (
    <Screen headingRef={headingRef} title={t('onboarding.sector.title')} lead={t('onboarding.sector.lead')}>
      <form onSubmit={onSubmit({ sector })} className="flex flex-col gap-4">
        <TextField id="sector-search" type="search" label={t('onboarding.sector.search')} value={query} onChange={(event) => setQuery(event.target.value)} autoComplete="off" />
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-2 text-sm font-semibold">{t('onboarding.sector.legend')}</legend>
          {shown.length === 0 && <p className="text-sm text-muted">{t('onboarding.sector.none')}</p>}
          <div className="flex max-h-80 flex-col gap-1 overflow-y-auto rounded-xl border border-line p-1">
            {shown.map((option) => (
              <label
                key={option.value}
                className={`flex min-h-11 cursor-pointer items-center gap-3 rounded-lg px-3 ${option.value === sector ? 'bg-accent-soft font-semibold' : 'hover:bg-subtle'}`}
              >
                <input type="radio" name="sector" value={option.value} checked={option.value === sector} onChange={() => setSector(option.value)} className="size-4 accent-[var(--accent)]" />
                {option.label}
              </label>
            ))}
          </div>
          {errors.sector && <p className="text-sm font-medium text-danger">{errors.sector.join(' ')}</p>}
        </fieldset>
        <Nav back={back} busy={busy} ready={Boolean(sector)} next={t('onboarding.next')} />
      </form>
    </Screen>
  );
}

function PlaceStep({ headingRef, initial, busy, back, errors, onSubmit, timeZones }: StepProps<{ timeZone: string; locale: string }> & { timeZones: Option[] }) {
  const { t } = useI18n();
  const [values, setValues] = useState(initial);
  const zones = timeZones.some((zone) => zone.value === values.timeZone) ? timeZones : [{ value: values.timeZone, label: values.timeZone }, ...timeZones];
  return (
    <Screen headingRef={headingRef} title={t('onboarding.place.title')} lead={t('onboarding.place.lead')}>
      <form onSubmit={onSubmit(values)} className="flex flex-col gap-4">
        <SelectField
          id="timeZone"
          label={t('onboarding.place.timeZone')}
          hint={t('onboarding.place.timeZoneHint')}
          value={values.timeZone}
          options={zones}
          onChange={(event) => setValues({ ...values, timeZone: event.target.value })}
          errors={errors.timeZone}
        />
        <SelectField
          id="locale"
          label={t('onboarding.place.locale')}
          hint={t('onboarding.place.localeHint')}
          value={values.locale}
          options={WORKSPACE_LOCALES}
          onChange={(event) => setValues({ ...values, locale: event.target.value })}
          errors={errors.locale}
        />
        <Nav back={back} busy={busy} next={t('onboarding.confirm')} />
      </form>
    </Screen>
  );
}

function HoursStep({ headingRef, initial, busy, back, errors, onSubmit }: StepProps<Hours[]>) {
  const { t, locale } = useI18n();
  // One opening per day on this screen; split shifts are rows the settings can add later.
  const [days, setDays] = useState(() =>
    WEEKDAYS.map((weekday) => {
      const found = initial.find((h) => h.weekday === weekday);
      return { weekday, open: Boolean(found), opens: found?.opens ?? '09:00', closes: found?.closes ?? '19:00' };
    }),
  );
  // 2024-01-01 was a Monday: weekday names in the reader's language without a table of our own.
  const dayName = (weekday: number) => new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' }).format(new Date(Date.UTC(2024, 0, weekday)));
  const update = (weekday: number, change: Partial<(typeof days)[number]>) => setDays(days.map((d) => (d.weekday === weekday ? { ...d, ...change } : d)));
  const hours = days.filter((d) => d.open).map(({ weekday, opens, closes }) => ({ weekday, opens, closes }));
  const hoursError = Object.entries(errors).find(([field]) => field.startsWith('hours'))?.[1];
  return (
    <Screen headingRef={headingRef} title={t('onboarding.hours.title')} lead={t('onboarding.hours.lead')}>
      <form onSubmit={onSubmit({ hours })} className="flex flex-col gap-3">
        {days.map((day) => (
          <fieldset key={day.weekday} className="rounded-2xl border border-line bg-surface p-3">
            <legend className="sr-only">{dayName(day.weekday)}</legend>
            <label className="flex min-h-11 items-center gap-3 font-semibold first-letter:uppercase">
              <input type="checkbox" checked={day.open} onChange={(event) => update(day.weekday, { open: event.target.checked })} className="size-5 accent-[var(--accent)]" />
              <span className="first-letter:uppercase">{t('onboarding.hours.openOn', { day: dayName(day.weekday) })}</span>
            </label>
            {day.open && (
              <div className="mt-2 grid grid-cols-2 gap-3">
                <TextField id={`opens-${day.weekday}`} type="time" label={t('onboarding.hours.opens')} value={day.opens} onChange={(event) => update(day.weekday, { opens: event.target.value })} />
                <TextField id={`closes-${day.weekday}`} type="time" label={t('onboarding.hours.closes')} value={day.closes} onChange={(event) => update(day.weekday, { closes: event.target.value })} />
              </div>
            )}
          </fieldset>
        ))}
        {hoursError && <Alert tone="error">{hoursError.join(' ')}</Alert>}
        <Nav back={back} busy={busy} next={t('onboarding.next')} />
      </form>
    </Screen>
  );
}

function ServicesStep({ headingRef, initial, busy, back, errors, onSubmit }: StepProps<Service[]>) {
  const { t } = useI18n();
  const [rows, setRows] = useState(() => initial.map((s, key) => ({ key, name: s.name, minutes: String(s.durationMinutes), euros: String(s.priceCents / 100) })));
  const [nextKey, setNextKey] = useState(initial.length);
  const update = (key: number, change: Partial<(typeof rows)[number]>) => setRows(rows.map((r) => (r.key === key ? { ...r, ...change } : r)));
  const services = rows
    .filter((r) => r.name.trim())
    .map((r) => ({ name: r.name.trim(), durationMinutes: Math.round(Number(r.minutes)), priceCents: Math.round(Number(r.euros.replace(',', '.')) * 100) }));
  const servicesError = Object.entries(errors).find(([field]) => field.startsWith('services'))?.[1];
  return (
    <Screen headingRef={headingRef} title={t('onboarding.services.title')} lead={t('onboarding.services.lead')}>
      <form onSubmit={onSubmit({ services })} className="flex flex-col gap-3">
        {rows.map((row, i) => (
          <fieldset key={row.key} className="rounded-2xl border border-line bg-surface p-3">
            <legend className="sr-only">{t('onboarding.services.item', { number: i + 1 })}</legend>
            <TextField id={`service-${row.key}-name`} label={t('onboarding.services.name')} maxLength={120} value={row.name} onChange={(event) => update(row.key, { name: event.target.value })} />
            <div className="mt-2 grid grid-cols-2 gap-3">
              <TextField
                id={`service-${row.key}-minutes`}
                type="number"
                inputMode="numeric"
                min={5}
                max={1440}
                label={t('onboarding.services.minutes')}
                value={row.minutes}
                onChange={(event) => update(row.key, { minutes: event.target.value })}
              />
              <TextField
                id={`service-${row.key}-price`}
                type="number"
                inputMode="decimal"
                min={0}
                step="0.01"
                label={t('onboarding.services.price')}
                value={row.euros}
                onChange={(event) => update(row.key, { euros: event.target.value })}
              />
            </div>
            <Button variant="ghost" className="mt-2 text-danger" onClick={() => setRows(rows.filter((r) => r.key !== row.key))}>
              {t('onboarding.services.remove', { name: row.name || t('onboarding.services.item', { number: i + 1 }) })}
            </Button>
          </fieldset>
        ))}
        <Button
          variant="secondary"
          onClick={() => {
            setRows([...rows, { key: nextKey, name: '', minutes: '30', euros: '0' }]);
            setNextKey(nextKey + 1);
          }}
        >
          {t('onboarding.services.add')}
        </Button>
        {servicesError && <Alert tone="error">{servicesError.join(' ')}</Alert>}
        <Nav back={back} busy={busy} next={t('onboarding.next')} />
      </form>
    </Screen>
  );
}

function StaffStep({ headingRef, initial, busy, back, errors, onSubmit }: StepProps<{ name: string }[]>) {
  const { t } = useI18n();
  const [rows, setRows] = useState(() => (initial.length ? initial : [{ name: '' }]).map((s, key) => ({ key, name: s.name })));
  const [nextKey, setNextKey] = useState(rows.length);
  const staff = rows.filter((r) => r.name.trim()).map((r) => ({ name: r.name.trim() }));
  const staffError = Object.entries(errors).find(([field]) => field.startsWith('staff'))?.[1];
  return (
    <Screen headingRef={headingRef} title={t('onboarding.staff.title')} lead={t('onboarding.staff.lead')}>
      <form onSubmit={onSubmit({ staff })} className="flex flex-col gap-3">
        {rows.map((row, i) => (
          <div key={row.key} className="flex items-end gap-2">
            <div className="min-w-0 flex-1">
              <TextField
                id={`staff-${row.key}`}
                label={t('onboarding.staff.name', { number: i + 1 })}
                autoComplete="off"
                maxLength={120}
                value={row.name}
                onChange={(event) => setRows(rows.map((r) => (r.key === row.key ? { ...r, name: event.target.value } : r)))}
              />
            </div>
            <Button variant="ghost" className="text-danger" aria-label={t('onboarding.staff.remove', { number: i + 1 })} onClick={() => setRows(rows.filter((r) => r.key !== row.key))}>
              ×
            </Button>
          </div>
        ))}
        <Button
          variant="secondary"
          onClick={() => {
            setRows([...rows, { key: nextKey, name: '' }]);
            setNextKey(nextKey + 1);
          }}
        >
          {t('onboarding.staff.add')}
        </Button>
        {staffError && <Alert tone="error">{staffError.join(' ')}</Alert>}
        <Nav back={back} busy={busy} next={t('onboarding.next')} />
      </form>
    </Screen>
  );
}
