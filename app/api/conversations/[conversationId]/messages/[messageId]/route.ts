import { ok, parseJson, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { deleteMessage, editMessage, messageBodySchema } from '@/lib/chat';

type Params = { conversationId: string; messageId: string };

export const PATCH = route<Params>(async ({ req, params }) => {
  const user = await requireUser(req);
  const { body } = await parseJson(req, messageBodySchema);
  return ok(await editMessage(user, params.conversationId, params.messageId, body));
});

export const DELETE = route<Params>(async ({ req, params }) =>
  ok(await deleteMessage(await requireUser(req), params.conversationId, params.messageId)),
);
