import { z } from 'zod';
import { ok, parseJson, parseParams, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { approveDecision, rejectDecision, undoDecision } from '@/lib/autonomy';

const paramsSchema = z.object({ workspaceId: z.uuid(), decisionId: z.uuid(), action: z.enum(['approve', 'reject', 'undo']) });
/** Approval names the hash of the exact proposal the person saw. */
const approveSchema = z.object({ argsHash: z.string().regex(/^[0-9a-f]{64}$/, 'api.decisions.argsHash') });

/**
 * POST …/approve `{argsHash}`: executes the proposal exactly once (410 when it expired, 409 when it was
 * already decided, changed, or could not be done); …/reject: ignores it; …/undo: takes back an ignore,
 * or cancels an executed action whose message is still queued (409 once it has gone out), an approved
 * proposal waiting for an OK again. Owner and admins only.
 */
export const POST = route<{ workspaceId: string; decisionId: string; action: string }>(async ({ req, params }) => {
  const user = await requireUser(req);
  const { workspaceId, decisionId, action } = parseParams(params, paramsSchema);
  if (action === 'approve') {
    const { argsHash } = await parseJson(req, approveSchema);
    return ok(await approveDecision(user, workspaceId, decisionId, { argsHash }));
  }
  if (action === 'reject') return ok(await rejectDecision(user, workspaceId, decisionId));
  return ok(await undoDecision(user, workspaceId, decisionId));
});
