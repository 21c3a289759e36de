import { ok, parseJson, route } from '@/lib/api';
import { listConversationArtifacts, publishArtifact, publishArtifactSchema } from '@/lib/artifacts';
import { requireUser } from '@/lib/auth';

type Params = { conversationId: string };

export const GET = route<Params>(async ({ req, params }) => ok(await listConversationArtifacts(await requireUser(req), params.conversationId)));

// A person publishes an artifact: version 1 and a message with its chip.
export const POST = route<Params>(async ({ req, params }) => {
  const user = await requireUser(req);
  const input = await parseJson(req, publishArtifactSchema);
  return ok(await publishArtifact({ kind: 'person', user }, params.conversationId, input), 201);
});
