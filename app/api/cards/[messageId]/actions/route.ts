import { ok, parseJson, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { clickAction, clickSchema } from '@/lib/cards';

type Params = { messageId: string };

// A person clicks a button on a card: handed to the agent, or held for an OK first.
export const POST = route<Params>(async ({ req, params }) => {
  const user = await requireUser(req);
  return ok(await clickAction(user, params.messageId, await parseJson(req, clickSchema)), 201);
});
