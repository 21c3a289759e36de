import { ok, parseJson, parseQuery, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { addReaction, reactionSchema, removeReaction } from '@/lib/chat';

type Params = { conversationId: string; messageId: string };

export const POST = route<Params>(async ({ req, params }) => {
  const user = await requireUser(req);
  const { emoji } = await parseJson(req, reactionSchema);
  await addReaction(user, params.conversationId, params.messageId, emoji);
  return ok({ emoji, reacted: true }, 201);
});

// DELETE …/reactions?emoji=👍 (a query, not a body: some clients drop DELETE bodies).
export const DELETE = route<Params>(async ({ req, params }) => {
  const user = await requireUser(req);
  const { emoji } = parseQuery(req, reactionSchema);
  await removeReaction(user, params.conversationId, params.messageId, emoji);
  return ok({ emoji, reacted: false });
});
