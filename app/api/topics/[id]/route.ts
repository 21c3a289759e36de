import { okRaw } from '@/lib/api';
import { authenticate, contractRoute, deleteTopic, getTopic, parseBody, updateTopic, updateTopicSchema } from '@/lib/topics';

type Params = { id: string };

export const GET = contractRoute<Params>(async ({ req, params }) => okRaw(await getTopic(await authenticate(req), params.id)));

/** Changes the fields sent (name, system_prompt, summary, model); 409 when the new name is taken. */
export const PUT = contractRoute<Params>(async ({ req, params }) => {
  const caller = await authenticate(req);
  return okRaw(await updateTopic(caller, params.id, await parseBody(req, updateTopicSchema)));
});

/** 409 while the topic has pending or processing requests; its finished requests and sessions go with it. */
export const DELETE = contractRoute<Params>(async ({ req, params }) => okRaw(await deleteTopic(await authenticate(req), params.id)));
