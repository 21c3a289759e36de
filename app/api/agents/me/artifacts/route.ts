import { ok, parseJson, route } from '@/lib/api';
import { requireAgent } from '@/lib/agents';
import { agentPublishArtifactSchema, publishArtifact } from '@/lib/artifacts';

// An agent publishes an artifact in a conversation it is a member of.
export const POST = route(async ({ req }) => {
  const { agentId } = await requireAgent(req);
  const { conversationId, ...input } = await parseJson(req, agentPublishArtifactSchema);
  return ok(await publishArtifact({ kind: 'agent', agentId }, conversationId, input), 201);
}, 'programs');
