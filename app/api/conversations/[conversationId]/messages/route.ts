import { ok, parseJson, parseQuery, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { historyQuerySchema, listMessages, messageBodySchema, sendMessage } from '@/lib/chat';

type Params = { conversationId: string };

export const GET = route<Params>(async ({ req, params }) => {
  const user = await requireUser(req);
  const query = parseQuery(req, historyQuerySchema);
  return ok(await listMessages(user, params.conversationId, query));
});

export const POST = route<Params>(async ({ req, params }) => {
  const user = await requireUser(req);
  const { body } = await parseJson(req, messageBodySchema);
  return ok(await sendMessage({ kind: 'person', user }, params.conversationId, body), 201);
});
