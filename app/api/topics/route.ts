import { okRaw } from '@/lib/api';
import { authenticate, contractRoute, createTopic, createTopicSchema, listTopics, parseBody } from '@/lib/topics';

/** The OpusAgent contract, §4.1: every topic of the key's workspace. */
export const GET = contractRoute(async ({ req }) => okRaw(await listTopics(await authenticate(req))));

/** 201 with the topic; 409 when the name is taken; 422 when a field does not fit. */
export const POST = contractRoute(async ({ req }) => {
  const caller = await authenticate(req);
  return okRaw(await createTopic(caller, await parseBody(req, createTopicSchema)), 201);
});
