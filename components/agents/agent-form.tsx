'use client';

import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useRef, useState, type FormEvent } from 'react';
import { api, errorText, fieldErrorsOf } from '@/components/api/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { TextAreaField, TextField } from '@/components/ui/field';
import { focusFirstError } from '@/components/ui/form';
import { useToast } from '@/components/ui/toast';
import { useI18n } from '@/lib/i18n/client';
import { agentsApi, agentsPath, type AgentView, type BackendOption, type PlaceOption, type SavedAgentView } from './types';

type Runtime = 'hosted' | 'local';
type Placement = 'everywhere' | 'chosen' | 'personal';

const choiceClass = (checked: boolean, disabled = false) =>
  `flex min-h-11 items-start gap-3 rounded-xl border px-3 py-2.5 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-accent ${
    disabled ? 'cursor-not-allowed border-line opacity-70' : checked ? 'cursor-pointer border-accent bg-accent-soft' : 'cursor-pointer border-line-strong'
  }`;

/**
 * Making an agent or changing one: who it is (name, role, what it handles), what it is told (plain
 * language), which model runs it (the backends /api/health reports; the ones this server cannot run
 * say why), where it runs (here, or on the owner's computer with `npm run bridge`) and in which
 * workspaces it works. The server has the last word; its sentences show under the field they are about.
 */
export function AgentForm({
  workspaceId,
  backends,
  places,
  agent,
  ownsAgent,
}: {
  workspaceId: string;
  backends: BackendOption[];
  /** Workspaces the person manages, this one included. */
  places: PlaceOption[];
  /** For an edit: the agent as it is now. */
  agent?: AgentView;
  /** Everywhere and personal follow the agent's owner: only they choose them. */
  ownsAgent: boolean;
}) {
  const { t } = useI18n();
  const router = useRouter();
  const toast = useToast();
  const formRef = useRef<HTMLFormElement>(null);
  const firstAvailable = backends.find((b) => b.available)?.id ?? 'offline';
  const [runtime, setRuntime] = useState<Runtime>(agent?.runtime ?? 'hosted');
  const [backend, setBackend] = useState(agent?.backend ?? firstAvailable);
  const [placement, setPlacement] = useState<Placement>(!agent ? 'chosen' : agent.visibility === 'everywhere' ? 'everywhere' : 'chosen');
  const [chosen, setChosen] = useState<string[]>(() => (agent?.workspaceIds ?? [workspaceId]).filter((id) => places.some((p) => p.id === id)));
  const personal = places.find((p) => p.isPersonal);

  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      agent
        ? api<SavedAgentView>(`${agentsApi(workspaceId)}/${agent.id}`, { method: 'PATCH', body })
        : api<SavedAgentView>(agentsApi(workspaceId), { body }),
    onSuccess: (saved) => {
      const here = saved.workspaceIds.includes(workspaceId);
      if (!agent) {
        toast(here ? t('agentsScreen.created', { name: saved.name }) : t('agentsScreen.createdElsewhere', { name: saved.name }), 'success');
        router.push(here ? `${agentsPath(workspaceId)}/${saved.id}` : agentsPath(workspaceId));
      } else {
        toast(here ? t('agentsScreen.saved', { name: saved.name }) : t('agentsScreen.savedElsewhere', { name: saved.name }), 'success');
        if (here) router.refresh();
        else router.push(agentsPath(workspaceId));
      }
    },
    onError: (error) => focusFirstError(formRef.current, fieldErrorsOf(error)),
  });
  const errors = fieldErrorsOf(save.error);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (save.isPending) return;
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const model = text('model');
    save.mutate({
      name: text('name'),
      role: text('role'),
      capabilities: text('capabilities')
        .split(',')
        .map((c) => c.trim())
        .filter(Boolean),
      instructions: text('instructions'),
      runtime,
      backend,
      model: model || null,
      workspaces: placement === 'chosen' ? chosen : placement,
    });
  }

  const selected = backends.find((b) => b.id === backend);
  return (
    <form ref={formRef} onSubmit={submit} noValidate className="flex flex-col gap-5" aria-label={agent ? t('agentsScreen.editTitle', { name: agent.name }) : t('agentsScreen.newTitle')}>
      {save.isError && !Object.keys(errors).length && <Alert tone="error">{errorText(save.error, t)}</Alert>}
      <TextField id="name" label={t('agentsScreen.name')} hint={t('agentsScreen.nameHint')} defaultValue={agent?.name} errors={errors.name} required maxLength={40} autoComplete="off" />
      <TextField id="role" label={t('agentsScreen.role')} hint={t('agentsScreen.roleHint')} defaultValue={agent?.role} errors={errors.role} maxLength={80} autoComplete="off" />
      <TextField
        id="capabilities"
        label={t('agentsScreen.capabilities')}
        hint={t('agentsScreen.capabilitiesHint')}
        defaultValue={agent?.capabilities.join(', ')}
        errors={errors.capabilities}
        autoComplete="off"
      />
      <TextAreaField
        id="instructions"
        label={t('agentsScreen.instructions')}
        hint={t('agentsScreen.instructionsHint')}
        defaultValue={agent?.instructions}
        errors={errors.instructions}
        maxLength={4000}
        rows={5}
      />

      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-semibold">{t('agentsScreen.runtime')}</legend>
        {(['hosted', 'local'] as const).map((value) => (
          <label key={value} className={choiceClass(runtime === value)}>
            <input type="radio" name="runtime" value={value} checked={runtime === value} onChange={() => setRuntime(value)} className="mt-1 size-5 shrink-0 accent-[var(--accent)]" />
            <span className="flex flex-col">
              <span className="font-semibold">{t(value === 'hosted' ? 'agentsScreen.hosted' : 'agentsScreen.local')}</span>
              <span className="text-sm text-muted">{t(value === 'hosted' ? 'agentsScreen.hostedHint' : 'agentsScreen.localHint')}</span>
            </span>
          </label>
        ))}
      </fieldset>

      <fieldset className="flex flex-col gap-2" aria-describedby={errors.backend ? 'backend-error' : undefined}>
        <legend className="mb-1 text-sm font-semibold">{t('agentsScreen.backend')}</legend>
        {backends.map((b) => {
          // A hosted agent runs on this server, so only what it can run; a local one runs on the owner's computer.
          const disabled = runtime === 'hosted' && !b.available;
          return (
            <label key={b.id} className={choiceClass(backend === b.id, disabled)}>
              <input
                type="radio"
                name="backend"
                value={b.id}
                checked={backend === b.id}
                disabled={disabled}
                onChange={() => setBackend(b.id)}
                className="mt-1 size-5 shrink-0 accent-[var(--accent)]"
              />
              <span className="flex min-w-0 flex-col">
                <span className="font-semibold">{t(`agentsScreen.backendName.${b.id}`)}</span>
                <span className="text-sm text-muted">
                  {b.available ? t('agentsScreen.availableHere') : runtime === 'hosted' ? t(`agentsScreen.unavailable.${b.id}`) : t('agentsScreen.onYourComputer')}
                </span>
                {!b.available && <span className="font-mono text-xs break-words text-muted">{t('agentsScreen.healthSays', { detail: b.detail })}</span>}
              </span>
            </label>
          );
        })}
        {errors.backend && (
          <p id="backend-error" className="text-sm font-medium text-danger">
            {errors.backend.join(' ')}
          </p>
        )}
      </fieldset>
      {backend !== 'offline' && (
        <TextField
          id="model"
          key={backend}
          label={t('agentsScreen.model')}
          hint={selected?.defaultModel ? t('agentsScreen.modelHint', { model: selected.defaultModel }) : t('agentsScreen.modelHintNone')}
          defaultValue={agent?.backend === backend ? (agent.model ?? '') : ''}
          errors={errors.model}
          maxLength={100}
          autoComplete="off"
        />
      )}

      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-semibold">{t('agentsScreen.where')}</legend>
        {(['chosen', 'everywhere', 'personal'] as const)
          .filter((value) => ownsAgent || value === 'chosen')
          .filter((value) => value !== 'personal' || personal)
          .map((value) => (
            <label key={value} className={choiceClass(placement === value)}>
              <input type="radio" name="placement" value={value} checked={placement === value} onChange={() => setPlacement(value)} className="mt-1 size-5 shrink-0 accent-[var(--accent)]" />
              <span className="flex flex-col">
                <span className="font-semibold">{t(`agentsScreen.place.${value}`)}</span>
                <span className="text-sm text-muted">{t(`agentsScreen.place.${value}Hint`)}</span>
              </span>
            </label>
          ))}
        {placement === 'chosen' && (
          <ul className="ml-2 flex flex-col" aria-label={t('agentsScreen.chooseWorkspaces')}>
            {places.map((place) => (
              <li key={place.id}>
                <label className="flex min-h-11 items-center gap-3 rounded-lg px-2 hover:bg-subtle">
                  <input
                    type="checkbox"
                    name="workspaces"
                    value={place.id}
                    checked={chosen.includes(place.id)}
                    onChange={(event) => setChosen((list) => (event.target.checked ? [...list, place.id] : list.filter((id) => id !== place.id)))}
                    className="size-5 accent-[var(--accent)]"
                  />
                  <span className="font-medium">{place.isPersonal ? t('agentsScreen.personalWorkspace') : place.name}</span>
                </label>
              </li>
            ))}
          </ul>
        )}
        {errors.workspaces && <p className="text-sm font-medium text-danger">{errors.workspaces.join(' ')}</p>}
      </fieldset>

      <Button type="submit" pending={save.isPending} pendingLabel={t('common.saving')} className="self-start">
        {agent ? t('agentsScreen.save') : t('agentsScreen.create')}
      </Button>
    </form>
  );
}
