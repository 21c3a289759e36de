import { randomUUID } from 'node:crypto';
import { ApiError, conflict, isUuid, notFound, serializeSnake } from '@/lib/api';
import { inWorkspace, type Caller } from './auth';
import { resolveModel, summarizeTopic as summarizeExchanges, type Exchange } from './execute';
import { type CreateTopicInput, type RequestStatus, type UpdateTopicInput } from './schemas';
import { TOPIC_COLUMNS, type TopicRow, type TopicWire } from './wire';

const topicNotFound = () => notFound('theTopic');
const duplicateName = (name: string) => conflict('api.topics.nameTaken', { name });

export async function createTopic(caller: Caller, input: CreateTopicInput): Promise<TopicWire> {
  try {
    const [row] = await inWorkspace(caller, (tx) =>
      tx.query<TopicRow>(
        `insert into public.topics as t (id, workspace_id, name, system_prompt, summary, model)
         values ($1, $2, $3, $4, $5, $6) returning ${TOPIC_COLUMNS}`,
        [randomUUID(), caller.workspaceId, input.name, input.system_prompt, input.summary, input.model],
      ),
    );
    return serializeSnake(row);
  } catch (error) {
    if (error instanceof ApiError && error.status === 409) throw duplicateName(input.name);
    throw error;
  }
}

export async function listTopics(caller: Caller): Promise<TopicWire[]> {
  const rows = await inWorkspace(caller, (tx) =>
    tx.query<TopicRow>(`select ${TOPIC_COLUMNS} from public.topics t where t.workspace_id = $1 order by t.created_at, t.id`, [caller.workspaceId]),
  );
  return rows.map((row) => serializeSnake(row));
}

export async function getTopic(caller: Caller, id: string): Promise<TopicWire> {
  if (!isUuid(id)) throw topicNotFound();
  const [row] = await inWorkspace(caller, (tx) =>
    tx.query<TopicRow>(`select ${TOPIC_COLUMNS} from public.topics t where t.workspace_id = $1 and t.id = $2`, [caller.workspaceId, id]),
  );
  if (!row) throw topicNotFound();
  return serializeSnake(row);
}

/** Changes the fields sent; the others stay. Nothing sent: the topic as it is. */
export async function updateTopic(caller: Caller, id: string, input: UpdateTopicInput): Promise<TopicWire> {
  if (!isUuid(id)) throw topicNotFound();
  const fields = (['name', 'system_prompt', 'summary', 'model'] as const).filter((f) => input[f] !== undefined);
  if (fields.length === 0) return getTopic(caller, id);
  const sets = fields.map((f, i) => `${f} = $${i + 3}`).join(', ');
  try {
    const [row] = await inWorkspace(caller, (tx) =>
      tx.query<TopicRow>(`update public.topics t set ${sets} where t.workspace_id = $1 and t.id = $2 returning ${TOPIC_COLUMNS}`, [
        caller.workspaceId,
        id,
        ...fields.map((f) => input[f] ?? null),
      ]),
    );
    if (!row) throw topicNotFound();
    return serializeSnake(row);
  } catch (error) {
    if (error instanceof ApiError && error.status === 409 && input.name) throw duplicateName(input.name);
    throw error;
  }
}

/** The contract refuses while requests are pending or processing; finished ones go with the topic. */
export async function deleteTopic(caller: Caller, id: string): Promise<{ id: string; deleted: true }> {
  if (!isUuid(id)) throw topicNotFound();
  await inWorkspace(caller, async (tx) => {
    // Locked first: a submit to this topic waits for the delete (its foreign key check needs the row),
    // then fails with 404, so no request can be accepted into a topic that is going away.
    const [topic] = await tx.query(`select id from public.topics where workspace_id = $1 and id = $2 for update`, [caller.workspaceId, id]);
    if (!topic) throw topicNotFound();
    const [busy] = await tx.query<{ n: number }>(
      `select count(*) as n from public.topic_requests where workspace_id = $1 and topic_id = $2 and status in ('pending', 'processing')`,
      [caller.workspaceId, id],
    );
    if (busy!.n > 0) throw conflict('api.topics.busy', { count: busy!.n });
    await tx.query(`delete from public.topics where workspace_id = $1 and id = $2`, [caller.workspaceId, id]);
  });
  return { id, deleted: true };
}

/** Exchanges sent for a full summary, newest kept when a topic has more than fit. */
const SUMMARY_INPUT_CHARS = 150_000;

/**
 * The contract's full summary: every completed exchange of the topic, summarized at once, replaces the
 * topic's summary. Runs in the request (the contract returns the new summary); no transaction is held
 * across the model call. A model failure is a 502 with the provider's message.
 */
export async function summarizeTopic(caller: Caller, id: string): Promise<TopicWire> {
  const topic = await getTopic(caller, id);
  const rows = await inWorkspace(caller, (tx) =>
    tx.query<Exchange>(
      `select prompt, result from public.topic_requests
        where workspace_id = $1 and topic_id = $2 and status = 'completed' order by seq desc`,
      [caller.workspaceId, id],
    ),
  );
  if (rows.length === 0) throw conflict('api.topics.nothingToSummarize');
  const exchanges: Exchange[] = [];
  let size = 0;
  for (const row of rows) {
    size += row.prompt.length + row.result.length;
    if (exchanges.length > 0 && size > SUMMARY_INPUT_CHARS) break;
    exchanges.unshift(row);
  }
  const outcome = await summarizeExchanges(caller.workspaceId, topic.name, resolveModel(null, topic.model), exchanges);
  if (!outcome.ok) throw new UpstreamError(outcome.error);
  const [row] = await inWorkspace(caller, (tx) =>
    tx.query<TopicRow>(`update public.topics t set summary = $3 where t.workspace_id = $1 and t.id = $2 returning ${TOPIC_COLUMNS}`, [
      caller.workspaceId,
      id,
      outcome.text,
    ]),
  );
  if (!row) throw topicNotFound();
  return serializeSnake(row);
}

/** The model behind the API failed: the route answers 502 with the provider's message. */
export class UpstreamError extends Error {}

export type StatusCounts = Record<RequestStatus, number>;

/** Requests per topic and status, for the app's topic list. */
export async function requestCounts(caller: Caller): Promise<Record<string, StatusCounts>> {
  const rows = await inWorkspace(caller, (tx) =>
    tx.query<{ topic_id: string; status: keyof StatusCounts; n: number }>(
      `select topic_id, status, count(*) as n from public.topic_requests where workspace_id = $1 group by topic_id, status`,
      [caller.workspaceId],
    ),
  );
  const counts: Record<string, StatusCounts> = {};
  for (const row of rows) (counts[row.topic_id] ??= { pending: 0, processing: 0, completed: 0, failed: 0 })[row.status] = row.n;
  return counts;
}
