import { okRaw } from '@/lib/api';
import { authenticate, closeSession, contractRoute, getSession } from '@/lib/topics';

type Params = { id: string };

/** Beyond the contract: the session with its requests in order (the app's conversation view). */
export const GET = contractRoute<Params>(async ({ req, params }) => {
  const { session, requests } = await getSession(await authenticate(req), params.id);
  return okRaw({ ...session, requests });
});

/** Closes the session: its requests stay, new ones are refused (409). Closing a closed session is a no-op. */
export const DELETE = contractRoute<Params>(async ({ req, params }) => okRaw(await closeSession(await authenticate(req), params.id)));
