import { ok, parseJson, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { resolveSchema, resolveThread } from '@/lib/chat';

type Params = { conversationId: string };

export const POST = route<Params>(async ({ req, params }) => {
  const user = await requireUser(req);
  const { summary } = await parseJson(req, resolveSchema);
  return ok(await resolveThread({ kind: 'person', user }, params.conversationId, summary));
});
