import { actionOfTool, ACTION_PLANET } from '@/lib/actions';
import type { AuthorizeWrite } from '@/lib/agent';
import { asService } from '@/lib/db';
import { submitAgentAction } from './decisions';
import { actionTier } from './tier';

/**
 * The runtime's write gate (the app's runs get it in their policy, lib/policy): for the action tools,
 * the connected accounts' writes (Gmail, Calendar, GitHub) included, the autonomy tier decides. `auto`
 * lets the tool run (its handler executes through `submitAgentAction`, which records the executed
 * decision); `propose` records the exact proposal for the owner's OK and tells the model so; `off` and
 * the kill switches refuse. Other write tools are only proposed.
 */
export const authorizeWrite: AuthorizeWrite = async (request) => {
  const type = actionOfTool(request.tool.name);
  if (!type) return { decision: 'propose' };
  const tier = await asService((tx) => actionTier(tx, request.workspaceId, type));
  if (tier === 'paused') return { decision: 'deny', message: 'Agents are paused by a kill switch: do not propose or take actions.' };
  if (tier === 'off') return { decision: 'deny', message: `Autonomy for the ${ACTION_PLANET[type]} planet is off: it neither proposes nor acts.` };
  if (tier === 'auto') return { decision: 'execute' };
  const outcome = await submitAgentAction({
    workspaceId: request.workspaceId,
    type,
    input: request.input,
    trigger: `agent:${request.tool.name}`,
    agentRunId: request.runId,
    now: new Date(),
    expect: 'propose',
  });
  switch (outcome.status) {
    case 'proposed':
      return { decision: 'propose', message: `Proposed, not done yet: the owner will see exactly this and approve or ignore it (until ${outcome.expiresAt.toISOString()}).` };
    case 'duplicate':
      return { decision: 'propose', message: `This was already ${outcome.existing} earlier; nothing new was recorded.` };
    case 'not_applicable':
    case 'skipped':
      return { decision: 'deny', message: outcome.reason };
    default:
      return { decision: 'deny', message: 'The action could not be recorded.' };
  }
};
