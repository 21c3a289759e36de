import { ok, parseJson, parseQuery, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { createConversation, createConversationSchema, listConversations, workspaceQuerySchema } from '@/lib/chat';

export const GET = route(async ({ req }) => {
  const user = await requireUser(req);
  const { workspaceId } = parseQuery(req, workspaceQuerySchema);
  return ok(await listConversations(user, workspaceId));
});

export const POST = route(async ({ req }) => {
  const user = await requireUser(req);
  const input = await parseJson(req, createConversationSchema);
  const { conversation, created } = await createConversation(user, input);
  return ok(conversation, created ? 201 : 200);
});
