import { z } from 'zod';
import { defineTool, type ToolDefinition } from '@/lib/agent';
import { asService } from '@/lib/db';
import { standingsIn } from './boss';
import { SALES_PERIODS } from './rules';

/**
 * The sales planet agent's read tool: quotas, pipeline and attainment of the month or quarter. People
 * are their ids (no names reach a model); money is integer cents; commissions are not included.
 */
export const salesStandingTool = defineTool({
  name: 'sales_standing',
  description:
    'The sales team this month or quarter (workspace time zone): per person id and for the whole team, won revenue (cents), deals won, open pipeline (cents), deals touched, and the quota with attainment %, whether it is met, on pace or behind, and what each remaining week needs. Also the open pipeline per stage.',
  input: z.object({ period: z.enum(SALES_PERIODS).default('month') }),
  kind: 'read',
  planet: 'sales',
  handler: async ({ period }, ctx) =>
    asService(async (tx) => {
      const [workspace] = await tx.query<{ time_zone: string }>(`select time_zone from public.workspaces where id = $1`, [ctx.workspaceId]);
      if (!workspace) throw new Error('The workspace no longer exists.');
      const { period: bounds, people, team } = await standingsIn(tx, ctx.workspaceId, workspace.time_zone, period, new Date());
      const stages = await tx.query<{ stage: string; open_deals: number; open_cents: string }>(
        `select s.name as stage, count(d.id)::int as open_deals, coalesce(sum(d.value_cents), 0)::text as open_cents
           from public.pipeline_stages s left join public.deals d on d.workspace_id = s.workspace_id and d.stage_id = s.id and d.status = 'open'
          where s.workspace_id = $1 group by s.id, s.name, s.position order by s.position`,
        [ctx.workspaceId],
      );
      return {
        period: { kind: bounds.period, startsOn: bounds.startsOn, end: bounds.end.toISOString() },
        team,
        people: people.map(({ name: _name, ...figures }) => figures),
        pipelineByStage: stages.map((s) => ({ ...s, open_cents: Number(s.open_cents) })),
      };
    }),
});

export const salesReadTools: ToolDefinition[] = [salesStandingTool] as unknown as ToolDefinition[];
