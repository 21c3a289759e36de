'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import { api, errorText } from '@/components/api/client';
import { Button } from '@/components/ui/button';
import { useI18n } from '@/lib/i18n/client';

type Phase = { kind: 'idle' } | { kind: 'starting' } | { kind: 'running'; planets: number } | { kind: 'nothing' } | { kind: 'finished' } | { kind: 'failed'; message: string };

/** How often the card asks whether the runs it started have finished. */
const POLL_MS = 2000;

/**
 * "Run now": starts today's analysis and says only what happened — that nothing could run (no data
 * yet), that it is running, or that it finished — then reloads the Home to show what it found.
 */
export function RunAnalysisNow({ workspaceId, initiallyRunning }: { workspaceId: string; initiallyRunning: number }) {
  const { t } = useI18n();
  const router = useRouter();
  const [phase, setPhase] = useState<Phase>(initiallyRunning > 0 ? { kind: 'running', planets: initiallyRunning } : { kind: 'idle' });
  const path = `/api/workspaces/${workspaceId}/analysis`;

  useEffect(() => {
    if (phase.kind !== 'running') return;
    const timer = setInterval(() => {
      api<{ running: number; finishedEver: boolean }>(path)
        .then((state) => {
          if (state.running > 0) return;
          setPhase({ kind: 'finished' });
          router.refresh();
        })
        .catch((error) => setPhase({ kind: 'failed', message: errorText(error, t) }));
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [phase.kind, path, router, t]);

  async function run() {
    setPhase({ kind: 'starting' });
    try {
      const result = await api<{ started: string[]; alreadyRunning: number }>(path, { body: {} });
      const planets = result.started.length + result.alreadyRunning;
      setPhase(planets > 0 ? { kind: 'running', planets } : { kind: 'nothing' });
    } catch (error) {
      setPhase({ kind: 'failed', message: errorText(error, t) });
    }
  }

  const busy = phase.kind === 'starting' || phase.kind === 'running';
  return (
    <div className="flex flex-col gap-2">
      <Button variant="secondary" onClick={run} pending={busy} pendingLabel={t('nextSteps.running')} className="self-start">
        {t('nextSteps.runNow')}
      </Button>
      <p role="status" className="text-sm text-pretty">
        {phase.kind === 'running' && t('nextSteps.runningPlanets', { count: phase.planets })}
        {phase.kind === 'nothing' && t('nextSteps.nothingToRun')}
        {phase.kind === 'finished' && t('nextSteps.finished')}
        {phase.kind === 'failed' && phase.message}
      </p>
    </div>
  );
}
