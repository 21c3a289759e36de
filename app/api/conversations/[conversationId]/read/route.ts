import { ok, parseJson, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { markRead, markReadSchema } from '@/lib/chat';

type Params = { conversationId: string };

export const POST = route<Params>(async ({ req, params }) => {
  const user = await requireUser(req);
  const { seq } = await parseJson(req, markReadSchema);
  return ok(await markRead(user, params.conversationId, seq));
});
