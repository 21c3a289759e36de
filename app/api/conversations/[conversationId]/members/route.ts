import { ok, parseJson, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { addMembers, addMembersSchema } from '@/lib/chat';

type Params = { conversationId: string };

export const POST = route<Params>(async ({ req, params }) => {
  const user = await requireUser(req);
  const input = await parseJson(req, addMembersSchema);
  return ok(await addMembers(user, params.conversationId, input));
});
