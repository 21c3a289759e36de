import { z } from 'zod';
import { isUuid, notFound, rethrowAsApiError } from '@/lib/api';
import { roleIn } from '@/lib/autonomy';
import { withUser, type SessionUser, type Tx } from '@/lib/db';
import type { Planet } from '@/lib/planets';
import type { InsightDraft, Severity } from './rules';

export const INSIGHT_STATUSES = ['new', 'seen', 'dismissed', 'actioned'] as const;
export type InsightStatus = (typeof INSIGHT_STATUSES)[number];
/** Written by the agent's analysis, or by the rules when no model is configured. */
export const INSIGHT_SOURCES = ['agent', 'rules'] as const;
type InsightSource = (typeof INSIGHT_SOURCES)[number];

export interface InsightView {
  id: string;
  planet: Planet;
  insight_date: string;
  kind: string;
  severity: Severity;
  title: string;
  body: string;
  params: Record<string, unknown>;
  source: InsightSource;
  status: InsightStatus;
  created_at: Date;
  updated_at: Date;
}

/**
 * Writes a run's insights for one planet and local day. Idempotent: one row per (planet, day, kind); a
 * re-run updates the content of a row but never its status, and leaves a dismissed row untouched.
 * Returns each kind's row id, or null where the person dismissed it (its actions are not proposed).
 */
export async function upsertInsights(
  tx: Tx,
  target: { workspaceId: string; planet: Planet; localDate: string; source: InsightSource; agentRunId: string | null; now: Date },
  drafts: InsightDraft[],
): Promise<Map<string, string | null>> {
  const ids = new Map<string, string | null>();
  if (drafts.length === 0) return ids;
  const rows = await tx.query<{ id: string; kind: string }>(
    `insert into public.workspace_insights
       (workspace_id, planet, insight_date, kind, severity, title, body, params, source, agent_run_id, created_at, updated_at)
     select $1, $2, $3::date, x.kind, x.severity, x.title, x.body, x.params, $4, $5, $6, $6
       from jsonb_to_recordset($7::jsonb) as x(kind text, severity text, title text, body text, params jsonb)
     on conflict (workspace_id, planet, insight_date, kind) do update
        set severity = excluded.severity, title = excluded.title, body = excluded.body, params = excluded.params,
            source = excluded.source, agent_run_id = excluded.agent_run_id, updated_at = excluded.updated_at
      where workspace_insights.status <> 'dismissed'
     returning id, kind`,
    [
      target.workspaceId, target.planet, target.localDate, target.source, target.agentRunId, target.now.toISOString(),
      JSON.stringify(drafts.map((d) => ({ kind: d.kind, severity: d.severity, title: d.title ?? '', body: d.body ?? '', params: d.params }))),
    ],
  );
  for (const draft of drafts) ids.set(draft.kind, rows.find((r) => r.kind === draft.kind)?.id ?? null);
  return ids;
}

export const INSIGHT_VIEW = `i.id, i.planet, to_char(i.insight_date, 'YYYY-MM-DD') as insight_date, i.kind, i.severity, i.title, i.body,
  i.params, i.source, i.status, i.created_at, i.updated_at`;

/** A workspace's insights of the last `days` days (default 14), newest first; dismissed ones only when asked. */
export async function listInsights(
  user: SessionUser,
  workspaceId: string,
  filter: { planet?: string; days?: number; includeDismissed?: boolean; limit?: number } = {},
  now = new Date(),
): Promise<InsightView[]> {
  if (!isUuid(workspaceId)) throw notFound('workspace');
  return withUser(user, async (tx) => {
    await roleIn(tx, user, workspaceId);
    return tx.query<InsightView>(
      `select ${INSIGHT_VIEW} from public.workspace_insights i
        where i.workspace_id = $1 and ($2::text is null or i.planet = $2)
          and i.insight_date >= ($6::timestamptz at time zone (select time_zone from public.workspaces where id = $1))::date - $3::int
          and ($4 or i.status <> 'dismissed')
        order by i.insight_date desc, case i.severity when 'act' then 0 when 'watch' then 1 else 2 end, i.kind
        limit $5`,
      [workspaceId, filter.planet ?? null, filter.days ?? 14, filter.includeDismissed ?? false, filter.limit ?? 100, now],
    );
  }).catch(rethrowAsApiError);
}

export const insightStatusSchema = z.object({ status: z.enum(['seen', 'dismissed']) });

/** Any member may mark an insight seen or dismiss it; an actioned one stays actioned. */
export async function setInsightStatus(user: SessionUser, workspaceId: string, insightId: string, status: 'seen' | 'dismissed', now = new Date()): Promise<InsightView> {
  if (!isUuid(workspaceId) || !isUuid(insightId)) throw notFound('insight');
  return withUser(user, async (tx) => {
    const [row] = await tx.query<InsightView>(
      `update public.workspace_insights i set status = $3, status_changed_by = $4, updated_at = $5
        where i.workspace_id = $1 and i.id = $2 and i.status <> 'actioned' and ($3 = 'dismissed' or i.status = 'new')
        returning ${INSIGHT_VIEW}`,
      [workspaceId, insightId, status, user.id, now.toISOString()],
    );
    if (row) return row;
    const [current] = await tx.query<InsightView>(`select ${INSIGHT_VIEW} from public.workspace_insights i where i.workspace_id = $1 and i.id = $2`, [
      workspaceId,
      insightId,
    ]);
    if (!current) throw notFound('insight');
    return current;
  }).catch(rethrowAsApiError);
}
