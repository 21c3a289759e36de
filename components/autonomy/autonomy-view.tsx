'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { api, errorText } from '@/components/api/client';
import { Promotion } from '@/components/home/needs-your-ok-island';
import { Button } from '@/components/ui/button';
import { Card, CardTitle } from '@/components/ui/card';
import { useToast } from '@/components/ui/toast';
import { useI18n } from '@/lib/i18n/client';
import type { AutonomySettingsView, Level } from './types';

const LEVELS: Level[] = ['off', 'propose', 'auto'];

type Change = { paused: boolean } | { planet: string; autonomy?: Level; paused?: boolean } | { actionType: string; auto: boolean };

/**
 * Settings → Autonomy (owner and admins): the workspace kill switch, each planet's level and kill
 * switch, the action types promoted to automatic, and pending promotion suggestions. Every change
 * shows at once and is rolled back, with the reason, if the server refuses it.
 */
export function AutonomyView({ workspaceId, initial }: { workspaceId: string; initial: AutonomySettingsView }) {
  const { t } = useI18n();
  const router = useRouter();
  const toast = useToast();
  const [settings, setSettings] = useState(initial);
  const [busy, setBusy] = useState(false);

  async function change(next: AutonomySettingsView, body: Change) {
    const previous = settings;
    setSettings(next);
    setBusy(true);
    try {
      setSettings(await api<AutonomySettingsView>(`/api/workspaces/${workspaceId}/autonomy`, { method: 'PATCH', body }));
      toast(t('autonomy.saved'));
      router.refresh();
    } catch (error) {
      setSettings(previous);
      toast(t('autonomy.failed', { reason: errorText(error, t) }), 'error');
    }
    setBusy(false);
  }

  const setPlanet = (planet: string, patch: { autonomy?: Level; paused?: boolean }) =>
    change({ ...settings, planets: settings.planets.map((p) => (p.planet === planet ? { ...p, ...patch } : p)) }, { planet, ...patch });

  return (
    <div className="flex flex-col gap-6">
      <Card tone={settings.paused ? 'danger' : 'default'}>
        <CardTitle>{t('autonomy.killTitle')}</CardTitle>
        <p className="mt-1 text-[0.9375rem] text-pretty text-muted">{t('autonomy.killBody')}</p>
        {settings.paused && <p className="mt-3 font-semibold text-danger">{t('autonomy.pausedAll')}</p>}
        <Button
          className="mt-4"
          variant={settings.paused ? 'primary' : 'danger'}
          disabled={busy}
          onClick={() => change({ ...settings, paused: !settings.paused }, { paused: !settings.paused })}
        >
          {settings.paused ? t('autonomy.resumeAll') : t('autonomy.pauseAll')}
        </Button>
      </Card>

      {settings.suggestions.length > 0 && (
        <section aria-labelledby="autonomy-suggestions" className="flex flex-col gap-3">
          <h2 id="autonomy-suggestions" className="px-1 text-lg font-semibold">
            {t('autonomy.suggestionsTitle')}
          </h2>
          {settings.suggestions.map((s) => (
            <Promotion key={s.actionType} workspaceId={workspaceId} suggestion={s} />
          ))}
        </section>
      )}

      <section aria-labelledby="autonomy-planets">
        <h2 id="autonomy-planets" className="mb-2 px-1 text-lg font-semibold">
          {t('autonomy.planetsTitle')}
        </h2>
        <ul className="divide-y divide-line overflow-hidden rounded-2xl border border-line bg-surface shadow-card">
          {settings.planets.map((p) => {
            const name = t(`planets.${p.planet}`);
            return (
              <li key={p.planet} className="flex flex-col gap-3 px-4 py-4 sm:px-5">
                <div className="flex items-center justify-between gap-3">
                  <span className="font-semibold">{name}</span>
                  <Button
                    variant="ghost"
                    className="-my-2"
                    disabled={busy}
                    aria-label={p.paused ? t('autonomy.resumePlanetNamed', { planet: name }) : t('autonomy.pausePlanetNamed', { planet: name })}
                    onClick={() => setPlanet(p.planet, { paused: !p.paused })}
                  >
                    {p.paused ? t('autonomy.resumePlanet') : t('autonomy.pausePlanet')}
                  </Button>
                </div>
                <fieldset disabled={busy}>
                  <legend className="sr-only">{t('autonomy.levelFor', { planet: name })}</legend>
                  <div className="grid grid-cols-3 gap-1 rounded-xl bg-subtle p-1">
                    {LEVELS.map((level) => (
                      <label key={level} className="relative">
                        <input
                          type="radio"
                          name={`level-${p.planet}`}
                          value={level}
                          checked={p.autonomy === level}
                          onChange={() => setPlanet(p.planet, { autonomy: level })}
                          className="peer absolute inset-0 size-full cursor-pointer opacity-0"
                        />
                        <span className="flex min-h-11 items-center justify-center rounded-lg px-2 text-center text-sm font-semibold text-muted peer-checked:bg-surface peer-checked:text-ink peer-checked:shadow-card peer-focus-visible:outline-2 peer-focus-visible:outline-accent">
                          {t(`autonomy.level.${level}`)}
                        </span>
                      </label>
                    ))}
                  </div>
                </fieldset>
                {p.paused && <p className="text-sm font-semibold text-danger">{t('autonomy.planetPaused')}</p>}
              </li>
            );
          })}
        </ul>
        <Card className="mt-3">
          <h3 className="font-semibold">{t('autonomy.levelsTitle')}</h3>
          <dl className="mt-2 flex flex-col gap-2 text-[0.9375rem]">
            {LEVELS.map((level) => (
              <div key={level}>
                <dt className="font-semibold">{t(`autonomy.level.${level}`)}</dt>
                <dd className="text-pretty text-muted">{t(`autonomy.level.${level}.description`)}</dd>
              </div>
            ))}
          </dl>
        </Card>
      </section>

      <section aria-labelledby="autonomy-actions">
        <h2 id="autonomy-actions" className="px-1 text-lg font-semibold">
          {t('autonomy.actionsTitle')}
        </h2>
        <p className="mb-2 px-1 text-sm text-pretty text-muted">{t('autonomy.actionsLead')}</p>
        <ul className="divide-y divide-line overflow-hidden rounded-2xl border border-line bg-surface shadow-card">
          {settings.actions.map((a) => {
            const state =
              a.tier === 'paused' ? 'autonomy.actionPaused' : a.tier === 'off' ? 'autonomy.actionOff' : a.tier === 'auto' ? 'autonomy.actionAuto' : 'autonomy.actionAsk';
            return (
              <li key={a.actionType} className="flex flex-col gap-2 px-4 py-4 sm:flex-row sm:items-center sm:px-5">
                <span className="flex min-w-0 flex-1 flex-col">
                  <span className="font-semibold">{t(`action.${a.actionType}`)}</span>
                  <span className="text-sm text-pretty text-muted">{t(`action.${a.actionType}.description`)}</span>
                  <span className="text-sm font-semibold">
                    {t(`planets.${a.planet}`)} · {t(state)}
                  </span>
                </span>
                <Button
                  variant="secondary"
                  className="shrink-0"
                  disabled={busy}
                  onClick={() =>
                    change(
                      { ...settings, actions: settings.actions.map((x) => (x.actionType === a.actionType ? { ...x, auto: !a.auto } : x)) },
                      { actionType: a.actionType, auto: !a.auto },
                    )
                  }
                >
                  {a.auto ? t('autonomy.makeAsk') : t('autonomy.makeAuto')}
                </Button>
              </li>
            );
          })}
        </ul>
      </section>
    </div>
  );
}
