import { okRaw, parseQuery } from '@/lib/api';
import { authenticate, contractRoute, listSessions, listSessionsQuery } from '@/lib/topics';

/** Active sessions with their request counts (`?include_closed=true` adds closed ones, `?topic_id=` filters). */
export const GET = contractRoute(async ({ req }) => {
  const caller = await authenticate(req);
  return okRaw(await listSessions(caller, parseQuery(req, listSessionsQuery)));
});
