import { z } from 'zod';
import { notFound, ok, parseParams, parseQuery, route } from '@/lib/api';
import { usageReport } from '@/lib/agent';
import { requireUser } from '@/lib/auth';

const paramsSchema = z.object({ workspaceId: z.uuid() });
const querySchema = z.object({
  /** A UTC calendar month, e.g. 2026-11; default this month. */
  month: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'api.usage.month')
    .optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
  /** Runs older than this instant (the createdAt of the last run on the previous page). */
  before: z.iso.datetime({ offset: true }).optional(),
});

/** Tokens this month against the plan's cap, per planet and agent, the latest runs, and the active backend. */
export const GET = route<{ workspaceId: string }>(async ({ req, params }) => {
  const user = await requireUser(req);
  const { workspaceId } = parseParams(params, paramsSchema);
  const query = parseQuery(req, querySchema);
  const report = await usageReport(user, workspaceId, {
    month: query.month,
    limit: query.limit,
    before: query.before ? new Date(query.before) : undefined,
  });
  if (!report) throw notFound('theWorkspace');
  return ok(report);
});
