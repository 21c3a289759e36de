import { ok, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { listRoutineRuns } from '@/lib/schedule';

/** A routine's latest runs, newest first: what the Routines page shows under History. */
export const GET = route<{ workspaceId: string; routineId: string }>(async ({ req, params }) =>
  ok(await listRoutineRuns(await requireUser(req), params.workspaceId, params.routineId)),
);
