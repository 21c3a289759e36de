import { mailLanguage, queueEmail } from '@/lib/auth';
import { config } from '@/lib/config';
import type { Database, Tx } from '@/lib/db';
import { totalTokens } from './backends/types';
import type { AgentRunResult } from './types';

export interface QuotaState {
  plan: string;
  locale: string;
  /** Tokens used this month (input incl. cache + output). */
  used: number;
  cap: number;
}

/** The workspace's plan, cap and use this month (UTC); undefined when the workspace does not exist. */
export async function quotaState(tx: Tx, workspaceId: string): Promise<QuotaState | undefined> {
  // A function, so the connection keeps the plan of its three-table join from run to run.
  const [row] = await tx.query<QuotaState>(`select plan, locale, cap, used from private.agent_quota($1)`, [workspaceId]);
  return row;
}

/** The sentence the owner reads when a run is refused because the month's tokens are used up. */
export function quotaMessage(q: QuotaState, now = new Date()): string {
  const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  const it = q.locale === 'it';
  const cap = new Intl.NumberFormat(it ? 'it-IT' : 'en-US').format(q.cap);
  const day = new Intl.DateTimeFormat(it ? 'it-IT' : 'en-US', { day: 'numeric', month: 'long', timeZone: 'UTC' }).format(next);
  const plan = q.plan.charAt(0).toUpperCase() + q.plan.slice(1);
  return it
    ? `Questo mese il workspace ha usato tutti i ${cap} token AI inclusi nel piano ${plan}: gli agenti riprendono il ${day}. Per farli ripartire subito, passa a un piano superiore.`
    : `This workspace has used all ${cap} AI tokens included in the ${plan} plan this month, so its agents are paused until ${day}. Upgrade the plan to resume them now.`;
}

export interface RunRecord {
  id: string;
  workspaceId: string;
  agentId?: string;
  agentName: string;
  planet: string;
  trigger: string;
  result: AgentRunResult;
}

/**
 * Writes the run's row and adds its tokens to the month in one statement, with no transaction around it.
 * When that crosses 80% of the cap and no warning was sent this month, a transaction marks it sent and
 * writes the owner's email to the outbox: one email per workspace and month (see
 * private.add_token_usage for why one that crashed in between is sent by the next run).
 */
export async function recordRun(db: Database, run: RunRecord): Promise<void> {
  const r = run.result;
  const u = r.usage;
  // JSON goes in as text and is cast: postgres.js would JSON-encode a string bound to a jsonb parameter again.
  const insert = `insert into public.agent_runs (
       id, workspace_id, agent_id, agent_name, planet, trigger, backend, model, ran, stop_reason, iterations,
       tool_calls, proposals, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, duration_ms,
       outcome, error_kind, error, session_id)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::text::json, $13::text::jsonb, $14, $15, $16, $17, $18, $19::text::jsonb, $20, $21, $22)`;
  const params = [
    run.id,
    run.workspaceId,
    run.agentId ?? null,
    run.agentName,
    run.planet,
    run.trigger,
    r.backend,
    r.model,
    r.ran,
    r.stopReason,
    r.iterations,
    JSON.stringify(r.toolCalls),
    JSON.stringify(r.proposals),
    u.input_tokens,
    u.output_tokens,
    u.cache_read_input_tokens,
    u.cache_creation_input_tokens,
    Math.round(r.durationMs),
    JSON.stringify({ finalText: r.finalText, output: r.output ?? null }),
    r.error?.kind ?? null,
    r.error?.message ?? r.message ?? null,
    r.sessionId ?? null,
  ];
  if (totalTokens(u) === 0) {
    await db.query(insert, params);
    return;
  }
  // input_tokens of the month counts all input: uncached + cache reads + cache writes.
  const [usage] = await db.query<{ usage_month: string; cap_tokens: number | null; warning_due: boolean }>(
    `with run as (${insert} returning workspace_id)
     select u.usage_month::text, u.cap_tokens, u.warning_due
     from run cross join lateral private.add_token_usage(run.workspace_id, $14 + $16 + $17, $15, $16, $17) u`,
    params,
  );
  if (usage?.warning_due && usage.cap_tokens) {
    const { cap_tokens: cap, usage_month: month } = usage;
    await db.transaction((tx) => sendQuotaWarning(tx, run.workspaceId, month, cap));
  }
}

async function sendQuotaWarning(tx: Tx, workspaceId: string, month: string, cap: number) {
  // Under the row lock: of two runs that both saw the warning due, the first marks it and sends it.
  const [marked] = await tx.query<{ used: number }>(
    `update public.workspace_token_usage set warning_sent_at = now()
     where workspace_id = $1 and period_month = $2::date and warning_sent_at is null
     returning input_tokens + output_tokens as used`,
    [workspaceId, month],
  );
  if (!marked) return;
  const used = marked.used;
  const [ws] = await tx.query<{ name: string; locale: string; owner_locale: string | null; email: string | null }>(
    `select w.name, w.locale, p.locale as owner_locale, u.email
       from public.workspaces w join auth.users u on u.id = w.owner_id left join public.profiles p on p.user_id = w.owner_id
      where w.id = $1`,
    [workspaceId],
  );
  if (!ws?.email) return;
  const { locale, t } = mailLanguage(ws.owner_locale, ws.locale);
  const numbers = new Intl.NumberFormat(locale);
  const vars = { workspace: ws.name, percent: Math.floor((used / cap) * 100), used: numbers.format(used), cap: numbers.format(cap) };
  await queueEmail(tx, {
    to: ws.email,
    kind: 'quota_warning',
    locale,
    subject: t('accountMail.quotaSubject', vars),
    body: t('accountMail.quotaBody', vars),
    link: { url: `${config().APP_URL}/w/${workspaceId}/settings/usage`, label: t('accountMail.quotaLink') },
  });
}
