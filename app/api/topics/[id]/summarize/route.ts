import { okRaw } from '@/lib/api';
import { authenticate, contractRoute, summarizeTopic } from '@/lib/topics';

/**
 * Replaces the topic's summary with one of all its completed exchanges and returns the topic (its new
 * `summary` included). 409 when nothing is completed yet; 502 with the provider's message when the model fails.
 */
export const POST = contractRoute<{ id: string }>(async ({ req, params }) => okRaw(await summarizeTopic(await authenticate(req), params.id)));
