import { okRaw, parseQuery } from '@/lib/api';
import { authenticate, contractRoute, deleteRequest, getRequest, getRequestQuery } from '@/lib/topics';

type Params = { id: string };

/** The request with its result once there is one; `?wait=N` (≤ 60) waits up to N seconds for it to finish. */
export const GET = contractRoute<Params>(async ({ req, params }) => {
  const caller = await authenticate(req);
  const { wait } = parseQuery(req, getRequestQuery);
  return okRaw(await getRequest(caller, params.id, wait, req.signal));
});

/** Withdraws a pending request; 409 once it is processing, completed or failed. */
export const DELETE = contractRoute<Params>(async ({ req, params }) => okRaw(await deleteRequest(await authenticate(req), params.id)));
