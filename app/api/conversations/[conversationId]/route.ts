import { ok, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { getConversation } from '@/lib/chat';

type Params = { conversationId: string };

export const GET = route<Params>(async ({ req, params }) => ok(await getConversation(await requireUser(req), params.conversationId)));
