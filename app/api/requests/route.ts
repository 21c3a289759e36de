import { okRaw, parseQuery } from '@/lib/api';
import {
  authenticate,
  checkSubmitLimit,
  contractRoute,
  idempotencyKeyOf,
  listRequests,
  listRequestsQuery,
  parseBody,
  submitRequest,
  submitRequestSchema,
} from '@/lib/topics';

/** Newest first, filtered by `status`, `topic_id`, `session_id`. */
export const GET = contractRoute(async ({ req }) => {
  const caller = await authenticate(req);
  return okRaw(await listRequests(caller, parseQuery(req, listRequestsQuery)));
});

/**
 * Queues a request: 202 with its id and session_id. Rate limited per key (429 with Retry-After);
 * 404 for an unknown topic or session, 409 for a closed session, 422 for a session of another topic,
 * an invalid body or an Idempotency-Key reused with another body.
 */
export const POST = contractRoute(async ({ req }) => {
  const caller = await authenticate(req);
  const input = await parseBody(req, submitRequestSchema);
  const idempotencyKey = idempotencyKeyOf(req);
  const limits = await checkSubmitLimit(caller);
  const { request, replayed } = await submitRequest(caller, input, idempotencyKey);
  return okRaw(request, 202, { ...limits, Location: `/api/requests/${request.id}`, ...(replayed ? { 'Idempotent-Replayed': 'true' } : {}) });
});
