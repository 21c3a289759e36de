import { actionOfTool, ACTION_PLANET } from '@/lib/actions';
import type { AuthorizeWrite, WriteDecision } from '@/lib/agent';
import { asService } from '@/lib/db';
import { submitAction } from './decisions';
import { actionTier } from './tier';

/**
 * The runtime's write gate (the app's runs get it in their policy, lib/policy): for the action tools,
 * the autonomy tier decides. `auto` lets the tool run (its handler executes through `submitAction`,
 * which records the executed decision); `propose` records the exact proposal for the owner's OK and
 * tells the model so; `off` and the kill switches refuse. A connected account's write tools (Gmail,
 * Calendar, GitHub) follow their planet's tier the same way, except that `propose` holds the call
 * without recording a proposal for the Home (see `authorizeConnectionWrite`). Other write tools are only
 * proposed.
 */
export const authorizeWrite: AuthorizeWrite = async (request) => {
  const type = actionOfTool(request.tool.name);
  if (!type) return request.tool.connection ? authorizeConnectionWrite(request) : { decision: 'propose' };
  const tier = await asService((tx) => actionTier(tx, request.workspaceId, type));
  if (tier === 'paused') return { decision: 'deny', message: 'Agents are paused by a kill switch: do not propose or take actions.' };
  if (tier === 'off') return { decision: 'deny', message: `Autonomy for the ${ACTION_PLANET[type]} planet is off: it neither proposes nor acts.` };
  if (tier === 'auto') return { decision: 'execute' };
  const outcome = await asService((tx) =>
    submitAction(tx, {
      workspaceId: request.workspaceId,
      type,
      input: request.input,
      trigger: `agent:${request.tool.name}`,
      agentRunId: request.runId,
      now: new Date(),
      expect: 'propose',
    }),
  );
  switch (outcome.status) {
    case 'proposed':
      return { decision: 'propose', message: `Proposed: the owner will see it with the exact message and approve or ignore it (until ${outcome.expiresAt.toISOString()}).` };
    case 'duplicate':
      return { decision: 'propose', message: `This was already ${outcome.existing} earlier; nothing new was recorded.` };
    case 'not_applicable':
    case 'skipped':
      return { decision: 'deny', message: outcome.reason };
    default:
      return { decision: 'deny', message: 'The action could not be recorded.' };
  }
};

/**
 * A write on a connected account (send an email, put a booking in the calendar, open an issue): the tier
 * of the tool's planet decides, with the kill switches. `auto` runs it; `propose` holds it, and the model
 * is told plainly that nothing happened, because these calls have no approval card on the Home yet.
 */
async function authorizeConnectionWrite(request: Parameters<AuthorizeWrite>[0]): Promise<WriteDecision> {
  const planet = request.tool.planet ?? request.planet;
  const [row] = await asService((tx) =>
    tx.query<{ tier: 'paused' | 'off' | 'propose' | 'auto' }>(`select private.action_tier($1, $2, $3) as tier`, [request.workspaceId, planet, request.tool.name]),
  );
  switch (row!.tier) {
    case 'auto':
      return { decision: 'execute' };
    case 'paused':
      return { decision: 'deny', message: 'Agents are paused by a kill switch: do not propose or take actions.' };
    case 'off':
      return { decision: 'deny', message: `Autonomy for the ${planet} planet is off: it neither proposes nor acts.` };
    default:
      return {
        decision: 'propose',
        message: `Not done: the ${planet} planet asks for the owner's OK before acting, and this action cannot be approved from the app yet. Tell the owner exactly what you would do instead.`,
      };
  }
}
