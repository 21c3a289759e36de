'use client';

import { useMutation } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { api, errorText, fieldErrorsOf } from '@/components/api/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { SelectField, TextAreaField, TextField } from '@/components/ui/field';
import { compactErrors, focusFirstError, type FieldErrors } from '@/components/ui/form';
import { useI18n } from '@/lib/i18n/client';
import { CHOICES, DEFAULT_DRAFT, draftOf, scheduleOf, UNITS, type ScheduleDraft } from './schedule';
import type { AgentOption, RoutineLimits, RoutineView, ScheduleView } from './types';

type Body = { agentId?: string; name: string; instruction: string; schedule: ScheduleView };

/** The API's field names (zod paths) mapped to this form's controls. */
const FIELD_OF: Record<string, string> = {
  agentId: 'agent',
  name: 'name',
  instruction: 'instruction',
  'schedule.minutes': 'every',
  'schedule.cron': 'cron',
  schedule: 'choice',
};

/**
 * Adding a routine (pick the agent) or editing one (its agent stays): name, instruction and a schedule
 * picker with the presets, an interval in minutes, hours or days, or a custom cron. The server has the
 * last word; its sentences are shown under the field they are about, or above the form.
 */
export function RoutineForm({
  workspaceId,
  idPrefix,
  limits,
  timeZone,
  agents,
  routine,
  onSaved,
  onCancel,
}: {
  workspaceId: string;
  /** Keeps ids unique while an edit form and the add form are both on the page. */
  idPrefix: string;
  limits: RoutineLimits;
  timeZone: string;
  /** For a new routine: the workspace's agents to choose from. */
  agents?: AgentOption[];
  /** For an edit: the routine as it is now. */
  routine?: RoutineView;
  onSaved: (routine: RoutineView) => void;
  onCancel?: () => void;
}) {
  const { t } = useI18n();
  const formRef = useRef<HTMLFormElement>(null);
  const id = (field: string) => `${idPrefix}-${field}`;
  const [agentId, setAgentId] = useState(routine?.agent.id ?? agents?.[0]?.id ?? '');
  const [name, setName] = useState(routine?.name ?? '');
  const [instruction, setInstruction] = useState(routine?.instruction ?? '');
  const [draft, setDraft] = useState<ScheduleDraft>(routine ? draftOf(routine.schedule) : DEFAULT_DRAFT);
  const [localErrors, setLocalErrors] = useState<FieldErrors>({});

  const save = useMutation({
    mutationFn: (body: Body) =>
      routine
        ? api<RoutineView>(`/api/workspaces/${workspaceId}/routines/${routine.id}`, { method: 'PATCH', body })
        : api<RoutineView>(`/api/workspaces/${workspaceId}/routines`, { body }),
    onSuccess: (saved) => {
      if (!routine) {
        setName('');
        setInstruction('');
        setDraft(DEFAULT_DRAFT);
      }
      onSaved(saved);
    },
    onError: (error) => focusFirstError(formRef.current, prefixed(serverFieldErrors(error).shown)),
  });

  /** Server field errors on controls this form shows; the rest go in the alert above it. */
  function serverFieldErrors(error: unknown): { shown: FieldErrors; unshown: boolean } {
    const shown: FieldErrors = {};
    let unshown = false;
    for (const [key, messages] of Object.entries(fieldErrorsOf(error))) {
      const field = FIELD_OF[key];
      const visible = field === 'agent' ? !routine : field === 'every' ? draft.choice === 'interval' : field === 'cron' ? draft.choice === 'custom' : Boolean(field);
      if (field && visible) shown[field] = [...(shown[field] ?? []), ...messages];
      else unshown = true;
    }
    return { shown, unshown };
  }

  const prefixed = (errors: FieldErrors) => Object.fromEntries(Object.entries(errors).map(([field, messages]) => [id(field), messages]));

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (save.isPending) return;
    const result = scheduleOf(draft, limits);
    const errors = compactErrors({
      agent: !routine && !agentId ? [t('routines.required')] : undefined,
      name: name.trim() ? undefined : [t('routines.required')],
      instruction: instruction.trim() ? undefined : [t('routines.required')],
      every: 'error' in result && result.error === 'every' ? [t('routines.intervalRange')] : undefined,
      cron: 'error' in result && result.error === 'cron' ? [t('routines.required')] : undefined,
    });
    setLocalErrors(errors);
    if (Object.keys(errors).length || !('schedule' in result)) {
      save.reset();
      focusFirstError(formRef.current, prefixed(errors));
      return;
    }
    save.mutate({ ...(routine ? {} : { agentId }), name: name.trim(), instruction: instruction.trim(), schedule: result.schedule });
  }

  const server = save.isError ? serverFieldErrors(save.error) : { shown: {}, unshown: false };
  const errorsOf = (field: string) => localErrors[field] ?? server.shown[field];
  const showAlert = save.isError && (server.unshown || Object.keys(server.shown).length === 0);
  function clear(field: string) {
    if (localErrors[field]) setLocalErrors(({ [field]: _, ...rest }) => rest);
  }

  if (!routine && agents?.length === 0) return <p className="text-[0.9375rem] text-pretty text-muted">{t('routines.noAgents')}</p>;

  return (
    <form ref={formRef} onSubmit={submit} noValidate className="flex flex-col gap-4">
      {showAlert && <Alert tone="error">{errorText(save.error, t)}</Alert>}
      {!routine && agents && (
        <SelectField
          id={id('agent')}
          label={t('routines.agent')}
          hint={t('routines.limit', { max: limits.perAgent })}
          value={agentId}
          onChange={(event) => setAgentId(event.target.value)}
          errors={errorsOf('agent')}
          options={agents.map((agent) => ({ value: agent.id, label: agent.name }))}
        />
      )}
      <TextField
        id={id('name')}
        label={t('routines.name')}
        hint={t('routines.nameHint')}
        value={name}
        onChange={(event) => {
          setName(event.target.value);
          clear('name');
        }}
        errors={errorsOf('name')}
        autoComplete="off"
        maxLength={80}
        required
      />
      <TextAreaField
        id={id('instruction')}
        label={t('routines.instruction')}
        hint={t('routines.instructionHint')}
        value={instruction}
        onChange={(event) => {
          setInstruction(event.target.value);
          clear('instruction');
        }}
        errors={errorsOf('instruction')}
        maxLength={4000}
        rows={3}
        required
      />
      <SelectField
        id={id('choice')}
        label={t('routines.schedule')}
        hint={t('routines.scheduleHint', { timeZone })}
        value={draft.choice}
        onChange={(event) => setDraft({ ...draft, choice: event.target.value as ScheduleDraft['choice'] })}
        errors={errorsOf('choice')}
        options={CHOICES.map((choice) => ({ value: choice, label: t(`routines.preset.${choice}`) }))}
      />
      {draft.choice === 'interval' && (
        <div className="grid grid-cols-2 items-start gap-3">
          <TextField
            id={id('every')}
            label={t('routines.every')}
            hint={t('routines.intervalHint')}
            type="number"
            inputMode="numeric"
            min={1}
            step={1}
            value={draft.every}
            onChange={(event) => {
              setDraft({ ...draft, every: event.target.value });
              clear('every');
            }}
            errors={errorsOf('every')}
          />
          <SelectField
            id={id('unit')}
            label={t('routines.unit')}
            value={draft.unit}
            onChange={(event) => {
              setDraft({ ...draft, unit: event.target.value as ScheduleDraft['unit'] });
              clear('every');
            }}
            options={UNITS.map((unit) => ({ value: unit, label: t(`routines.unit.${unit}`) }))}
          />
        </div>
      )}
      {draft.choice === 'custom' && (
        <TextField
          id={id('cron')}
          label={t('routines.cron')}
          hint={t('routines.cronHint')}
          value={draft.cron}
          onChange={(event) => {
            setDraft({ ...draft, cron: event.target.value });
            clear('cron');
          }}
          errors={errorsOf('cron')}
          className="font-mono"
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          placeholder="0 7 * * *"
        />
      )}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" pending={save.isPending} pendingLabel={routine ? t('routines.saving') : t('routines.creating')}>
          {routine ? t('routines.save') : t('routines.create')}
        </Button>
        {onCancel && (
          <Button variant="ghost" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
        )}
      </div>
    </form>
  );
}
