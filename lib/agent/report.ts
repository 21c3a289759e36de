import { withUser, type SessionUser } from '@/lib/db';
import { describeBackends, type BackendChoice } from './backends';
import type { BackendId, StopReason, ToolCallRecord, WriteProposal } from './types';


export interface UsageReport {
  month: string;
  plan: string;
  cap: number;
  /** Input (incl. cache) + output tokens this month. */
  used: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  warningSentAt: Date | null;
  byPlanet: Array<{ planet: string; tokens: number; runs: number }>;
  byAgent: Array<{ agentId: string | null; agentName: string; tokens: number; runs: number }>;
  runs: RunSummary[];
  backend: { active: BackendId; label: string; available: boolean; source: BackendChoice['source']; reason: string };
}

export interface RunSummary {
  id: string;
  createdAt: Date;
  agentName: string;
  planet: string;
  trigger: string;
  backend: string;
  model: string;
  stopReason: StopReason;
  iterations: number;
  tokens: number;
  durationMs: number;
  error: string | null;
}

export interface RunDetail extends RunSummary {
  agentId: string | null;
  ran: boolean;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  toolCalls: ToolCallRecord[];
  proposals: WriteProposal[];
  outcome: { finalText: string; output: unknown } | null;
  errorKind: string | null;
  sessionId: string | null;
}

const TOKENS = `(r.input_tokens + r.cache_read_tokens + r.cache_write_tokens + r.output_tokens)`;
const SUMMARY = `r.id, r.created_at as "createdAt", r.agent_name as "agentName", r.planet, r.trigger, r.backend, r.model,
  r.stop_reason as "stopReason", r.iterations, ${TOKENS} as tokens, r.duration_ms as "durationMs", r.error`;

export function currentMonth(now = new Date()): string {
  return now.toISOString().slice(0, 7);
}

/**
 * The Usage page: this month's tokens against the cap, per planet and per agent, and the latest runs.
 * Read as the user, so RLS decides; undefined when they are not a member of the workspace.
 */
export async function usageReport(
  user: SessionUser,
  workspaceId: string,
  options: { month?: string; limit?: number; before?: Date } = {},
): Promise<UsageReport | undefined> {
  const month = options.month ?? currentMonth();
  const start = `${month}-01`;
  return withUser(user, async (tx) => {
    const [ws] = await tx.query<{ plan: string; cap: number }>(
      `select w.plan, public.workspace_token_cap(w.id) as cap from public.workspaces w where w.id = $1`,
      [workspaceId],
    );
    if (!ws) return undefined;
    const range = `r.workspace_id = $1 and r.created_at >= $2::date and r.created_at < ($2::date + interval '1 month')`;
    const [usage, byPlanet, byAgent, runs] = await Promise.all([
      tx.query<{ input_tokens: number; output_tokens: number; cache_read_tokens: number; cache_write_tokens: number; warning_sent_at: Date | null }>(
        `select input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, warning_sent_at
         from public.workspace_token_usage where workspace_id = $1 and period_month = $2::date`,
        [workspaceId, start],
      ),
      tx.query<{ planet: string; tokens: number; runs: number }>(
        `select r.planet, sum(${TOKENS})::bigint as tokens, count(*)::int as runs from public.agent_runs r
         where ${range} group by r.planet order by tokens desc, r.planet`,
        [workspaceId, start],
      ),
      tx.query<{ agentId: string | null; agentName: string; tokens: number; runs: number }>(
        `select r.agent_id as "agentId", r.agent_name as "agentName", sum(${TOKENS})::bigint as tokens, count(*)::int as runs
         from public.agent_runs r where ${range} group by r.agent_id, r.agent_name order by tokens desc, r.agent_name`,
        [workspaceId, start],
      ),
      tx.query<RunSummary>(
        `select ${SUMMARY} from public.agent_runs r where ${range} and ($3::timestamptz is null or r.created_at < $3)
         order by r.created_at desc limit $4`,
        [workspaceId, start, options.before ?? null, options.limit ?? 50],
      ),
    ]);
    const u = usage[0];
    const backends = describeBackends();
    return {
      month,
      plan: ws.plan,
      cap: ws.cap,
      used: (u?.input_tokens ?? 0) + (u?.output_tokens ?? 0),
      inputTokens: u?.input_tokens ?? 0,
      outputTokens: u?.output_tokens ?? 0,
      cacheReadTokens: u?.cache_read_tokens ?? 0,
      cacheWriteTokens: u?.cache_write_tokens ?? 0,
      warningSentAt: u?.warning_sent_at ?? null,
      byPlanet,
      byAgent,
      runs,
      backend: { active: backends.active, label: backends.activeLabel, available: backends.available, source: backends.source, reason: backends.reason },
    };
  });
}

/** One run with its tool calls and timings; undefined when it does not exist or is not the user's to see. */
export async function runDetail(user: SessionUser, workspaceId: string, runId: string): Promise<RunDetail | undefined> {
  return withUser(user, async (tx) => {
    const [row] = await tx.query<RunDetail>(
      `select ${SUMMARY}, r.agent_id as "agentId", r.ran, r.input_tokens as "inputTokens", r.output_tokens as "outputTokens",
         r.cache_read_tokens as "cacheReadTokens", r.cache_write_tokens as "cacheWriteTokens", r.tool_calls as "toolCalls",
         r.proposals, r.outcome, r.error_kind as "errorKind", r.session_id as "sessionId"
       from public.agent_runs r where r.workspace_id = $1 and r.id = $2`,
      [workspaceId, runId],
    );
    return row;
  });
}
