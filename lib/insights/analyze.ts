import { ACTION_PLANET, ACTION_TYPES } from '@/lib/actions';
import { chooseBackend, runAgent } from '@/lib/agent';
import { actionTools, submitAction, type SubmitOutcome } from '@/lib/autonomy';
import { connectionToolsFor } from '@/lib/connections';
import { asService, type Tx } from '@/lib/db';
import { log } from '@/lib/log';
import { computePlanetMetrics, type Planet, type PlanetMetrics } from '@/lib/planets';
import { workspacePolicy } from '@/lib/policy';
import { salesReadTools } from '@/lib/sales';
import { findCandidates } from './candidates';
import { hasData, ruleBasedInsights, type InsightDraft } from './rules';
import { upsertInsights } from './store';
import { analysisOutput, analysisReadTools, finishAnalysisTool } from './tools';

export const ANALYSIS_TRIGGER = 'cron:analyze_planet_data';

export interface AnalysisOutcome {
  planet: Planet;
  status: 'skipped' | 'done';
  /** Why it was skipped: 'paused', 'off', 'no_data', 'no_workspace'. */
  reason?: string;
  source?: 'agent' | 'rules';
  insights: number;
  actions: Partial<Record<SubmitOutcome['status'], number>>;
}

const SYSTEM = `You are a planet agent of Multiverbe, looking after one part of a small business (a salon, a studio, a shop) for its owner.
Every morning you analyse your planet: read its metrics, compare them with the sector benchmark, and look at what your actions could do today.
Rules:
- Use only numbers the tools return; never invent data. Say which period a number covers and what it is compared with.
- Propose an action only when the data supports it, one call per subject; the write tools check consent, caps and quiet hours themselves and tell you when something does not apply.
- Whether an action runs at once or waits for the owner's OK is decided by the owner's autonomy settings, not by you.
- Finish with finish_analysis: at most five insights, the most important first, each with a stable key, written in the workspace's language for a busy owner reading on a phone.`;

interface Prepared {
  workspace: { timeZone: string; sector: string; locale: string };
  metrics: PlanetMetrics;
}

/** The planet's state at `now`, or why it is not analysed. */
async function prepare(tx: Tx, workspaceId: string, planet: Planet, now: Date): Promise<Prepared | { skip: string }> {
  const [row] = await tx.query<{ time_zone: string; sector: string; locale: string; tier: string }>(
    `select w.time_zone, w.sector, w.locale,
            case when coalesce((select paused from public.workspace_autonomy where workspace_id = w.id), false) or coalesce(p.paused, false) then 'paused'
                 else coalesce(p.autonomy, 'propose') end as tier
       from public.workspaces w
       left join public.workspace_planet_autonomy p on p.workspace_id = w.id and p.planet = $2
      where w.id = $1`,
    [workspaceId, planet],
  );
  if (!row) return { skip: 'no_workspace' };
  // Off: the planet neither proposes nor acts, and its agent does not spend tokens looking.
  if (row.tier === 'paused' || row.tier === 'off') return { skip: row.tier };
  const metrics = await computePlanetMetrics(tx, workspaceId, planet, { now, timeZone: row.time_zone });
  if (!hasData(metrics)) return { skip: 'no_data' };
  return { workspace: { timeZone: row.time_zone, sector: row.sector, locale: row.locale }, metrics };
}

/**
 * One planet's daily analysis for one local date. With a model: the planet agent reads metrics,
 * benchmark and candidates through read tools, proposes actions through the write tools (the autonomy
 * gate records or runs them) and returns insights. Without one (or when the run fails): the rule-based
 * analysis produces the same kinds of insights and suggests the same actions. Re-running the same day
 * updates insights in place and proposes nothing twice (dedupe keys).
 */
export async function analyzePlanet(input: { workspaceId: string; planet: Planet; localDate: string; now?: Date }): Promise<AnalysisOutcome> {
  const now = input.now ?? new Date();
  const { workspaceId, planet, localDate } = input;
  // Model runs take seconds: no transaction is held across them (PGlite has one connection).
  const ready = await asService((tx) => prepare(tx, workspaceId, planet, now));
  if ('skip' in ready) return { planet, status: 'skipped', reason: ready.skip, insights: 0, actions: {} };
  const agentInsights = await agentAnalysis(workspaceId, planet, localDate, ready);
  if (!agentInsights) return asService((tx) => analyzeWithRules(tx, input, now));
  const ids = await asService((tx) =>
    upsertInsights(tx, { workspaceId, planet, localDate, source: 'agent', agentRunId: agentInsights.runId, now }, agentInsights.drafts),
  );
  return { planet, status: 'done', source: 'agent', insights: [...ids.values()].filter(Boolean).length, actions: agentInsights.actions };
}

/** The rule-based analysis in the caller's transaction (also what the demo seeder runs). */
export async function analyzeWithRules(tx: Tx, input: { workspaceId: string; planet: Planet; localDate: string }, now: Date): Promise<AnalysisOutcome> {
  const { workspaceId, planet, localDate } = input;
  const ready = await prepare(tx, workspaceId, planet, now);
  if ('skip' in ready) return { planet, status: 'skipped', reason: ready.skip, insights: 0, actions: {} };
  const candidates = await findCandidates(tx, workspaceId, planet, now);
  const drafts = ruleBasedInsights(planet, ready.metrics, candidates);
  const ids = await upsertInsights(tx, { workspaceId, planet, localDate, source: 'rules', agentRunId: null, now }, drafts);
  const actions = await submitSuggested(tx, workspaceId, drafts, ids, now);
  return { planet, status: 'done', source: 'rules', insights: [...ids.values()].filter(Boolean).length, actions };
}

/** Proposes (or, at `auto`, runs) the actions of the insights that were not dismissed. */
async function submitSuggested(tx: Tx, workspaceId: string, drafts: InsightDraft[], ids: Map<string, string | null>, now: Date) {
  const counts: AnalysisOutcome['actions'] = {};
  for (const draft of drafts) {
    const insightId = ids.get(draft.kind);
    if (!insightId) continue;
    for (const action of draft.actions) {
      const outcome = await submitAction(tx, { workspaceId, type: action.type, input: action.input, trigger: ANALYSIS_TRIGGER, insightId, now });
      counts[outcome.status] = (counts[outcome.status] ?? 0) + 1;
    }
  }
  return counts;
}

/** The planet agent's run, or null when no model is configured or the run did not finish. */
async function agentAnalysis(workspaceId: string, planet: Planet, localDate: string, ready: Prepared) {
  const backend = chooseBackend();
  if (!backend.available || backend.id === 'offline') return null;
  const writes = ACTION_TYPES.filter((type) => ACTION_PLANET[type] === planet).map((type) => actionTools[type]);
  const result = await runAgent({
    system: SYSTEM,
    context: `Planet: ${planet}. Local date: ${localDate} (${ready.workspace.timeZone}). Sector: ${ready.workspace.sector}. Customers are written to in ${ready.workspace.locale === 'it' ? 'Italian' : 'English'}.`,
    firstMessage: `Analyse the ${planet} planet for today and finish with finish_analysis.`,
    // The connected accounts' tools of the planet: the policy keeps only those whose connection the workspace has.
    tools: [...analysisReadTools, ...(planet === 'sales' ? salesReadTools : []), ...writes, ...connectionToolsFor(planet), finishAnalysisTool],
    finishToolName: 'finish_analysis',
    workspaceId,
    policy: workspacePolicy,
    agent: { name: `${planet[0]!.toUpperCase()}${planet.slice(1)} planet` },
    planet,
    trigger: ANALYSIS_TRIGGER,
    maxIterations: 10,
    maxTokens: 1500,
    tokenBudget: 80_000,
    deadline: new Date(Date.now() + 3 * 60_000),
    allowOffline: false,
  });
  const output = analysisOutput.safeParse(result.output);
  if (!result.ran || result.stopReason !== 'finished' || !output.success) {
    log('warn', 'planet analysis fell back to rules', { workspaceId, planet, stopReason: result.stopReason, runId: result.runId });
    return null;
  }
  const actions: AnalysisOutcome['actions'] = {};
  for (const call of result.toolCalls.filter((c) => writes.some((w) => w.name === c.name))) {
    const status = call.note === 'proposed' ? 'proposed' : call.ok ? 'executed' : 'not_applicable';
    actions[status] = (actions[status] ?? 0) + 1;
  }
  const drafts: InsightDraft[] = output.data.insights.map((i) => ({ kind: `agent.${i.key}`, severity: i.severity, title: i.title, body: i.body, params: {}, actions: [] }));
  return { runId: result.runId, drafts, actions };
}
