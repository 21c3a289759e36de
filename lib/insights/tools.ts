import { z } from 'zod';
import { defineTool, type ToolDefinition } from '@/lib/agent';
import { asService } from '@/lib/db';
import { loadSectorBenchmark } from '@/lib/knowledge';
import { computePlanetMetrics, PLANETS } from '@/lib/planets';
import { findCandidates } from './candidates';
import { SEVERITIES } from './rules';

/** The workspace's time zone and sector, read per call (tools know only the workspace id). */
async function workspaceOf(workspaceId: string) {
  const [row] = await asService((tx) =>
    tx.query<{ time_zone: string; sector: string }>(`select time_zone, sector from public.workspaces where id = $1`, [workspaceId]),
  );
  if (!row) throw new Error('The workspace no longer exists.');
  return row;
}

/** The read tools of the daily analysis: aggregates and ids only, nothing that names a person. */
export const planetMetricsTool = defineTool({
  name: 'planet_metrics',
  description: 'Metrics of one planet of the business (with the previous period and the sector benchmark where there is one), its health and the reasons.',
  input: z.object({ planet: z.enum(PLANETS) }),
  kind: 'read',
  handler: async ({ planet }, ctx) => {
    const { time_zone } = await workspaceOf(ctx.workspaceId);
    return asService((tx) => computePlanetMetrics(tx, ctx.workspaceId, planet, { timeZone: time_zone }));
  },
});

export const sectorBenchmarkTool = defineTool({
  name: 'sector_benchmark',
  description: "The benchmark figures of the workspace's business sector, each with its source or marked as an estimate.",
  input: z.object({}),
  kind: 'read',
  handler: async (_input, ctx) => loadSectorBenchmark((await workspaceOf(ctx.workspaceId)).sector),
});

export const actionCandidatesTool = defineTool({
  name: 'action_candidates',
  description:
    'What the planet’s actions could be applied to today: appointments needing a reminder, freed slots a waiting customer fits, lapsed customers (with whether they may be contacted), stale deals. Ids and numbers only.',
  input: z.object({ planet: z.enum(PLANETS) }),
  kind: 'read',
  handler: async ({ planet }, ctx) => asService((tx) => findCandidates(tx, ctx.workspaceId, planet, new Date())),
});

export const analysisReadTools: ToolDefinition[] = [planetMetricsTool, sectorBenchmarkTool, actionCandidatesTool] as unknown as ToolDefinition[];

/** The finish tool of the analysis: its input is the run's insights. */
export const analysisOutput = z.object({
  insights: z
    .array(
      z.object({
        key: z.string().regex(/^[a-z0-9_]{1,40}$/).describe('A stable snake_case topic, e.g. no_show_rate or lapsed_customers: the same topic gets the same key every day.'),
        severity: z.enum(SEVERITIES),
        title: z.string().min(1).max(200).describe("One line for the owner, in the workspace's language."),
        body: z.string().max(1000).describe('The evidence in one or two sentences, with numbers and their comparison.'),
      }),
    )
    .max(8),
});

export const finishAnalysisTool = defineTool({
  name: 'finish_analysis',
  description: 'Call once at the end with the insights worth the owner’s attention today (none is a fine answer).',
  input: analysisOutput,
  kind: 'read',
  handler: async () => 'ok',
}) as unknown as ToolDefinition;
