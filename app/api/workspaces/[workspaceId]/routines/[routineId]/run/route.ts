import { ok, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { runRoutineNow } from '@/lib/schedule';

/** Runs a routine now: its instruction is written in the DM at once, and the run comes back. */
export const POST = route<{ workspaceId: string; routineId: string }>(async ({ req, params }) =>
  ok(await runRoutineNow(await requireUser(req), params.workspaceId, params.routineId), 201),
);
