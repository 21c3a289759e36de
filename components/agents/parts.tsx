import type { Agent } from '@/lib/agents';
import type { Translate } from '@/lib/i18n';

/** Online or not, in words and a dot (never colour alone). */
export function Presence({ online, t }: { online: boolean; t: Translate }) {
  return (
    <span className="inline-flex items-center gap-1 text-sm text-muted">
      <span aria-hidden className={`size-2 rounded-full ${online ? 'bg-success' : 'border border-line-strong'}`} />
      {online ? t('agentsScreen.online') : t('agentsScreen.offline')}
    </span>
  );
}

/** Which model runs it and where: "Offline model · runs here". */
export function AgentFacts({ agent, t }: { agent: Pick<Agent, 'backend' | 'model' | 'runtime'>; t: Translate }) {
  const model = agent.model ? `${t(`agentsScreen.backendName.${agent.backend}`)} · ${agent.model}` : t(`agentsScreen.backendName.${agent.backend}`);
  return (
    <span className="text-sm text-muted">
      {model} · {t(agent.runtime === 'hosted' ? 'agentsScreen.runsHere' : 'agentsScreen.runsLocally')}
    </span>
  );
}
