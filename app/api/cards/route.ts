import { z } from 'zod';
import { ok, parseQuery, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { listCardMessages } from '@/lib/cards';

// ?conversationId=… : the messages of a conversation that carry cards or artifacts, newest first.
export const GET = route(async ({ req }) => {
  const user = await requireUser(req);
  const { conversationId } = parseQuery(req, z.object({ conversationId: z.string() }));
  return ok(await listCardMessages(user, conversationId));
});
