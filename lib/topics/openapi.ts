/**
 * The topic API as OpenAPI 3.1: the OpusAgent contract (§3–8) as Multiverbe serves it, with the status
 * codes it chose where the contract is silent. Paths, status codes and descriptions are written here;
 * every body, query and answer schema is generated from the zod schema the route parses with
 * (./schemas.ts) or answers in (./wire.ts), so the document cannot say what the routes do not do
 * (openapi.test.ts calls each route and compares). The docs page (/docs/api) renders this same document.
 */
import { z } from 'zod';
import { createTopicSchema, getRequestQuery, listRequestsQuery, listSessionsQuery, submitRequestSchema, updateTopicSchema } from './schemas';
import { deletedWire, requestWire, sessionWire, sessionWithRequestsWire, submittedWire, topicWire } from './wire';

type Schema = Record<string, unknown>;

/** The document's named schemas, and the zod schema each is generated from. */
export const COMPONENTS = {
  Topic: topicWire,
  TopicCreate: createTopicSchema,
  TopicUpdate: updateTopicSchema,
  RequestSubmit: submitRequestSchema,
  Submitted: submittedWire,
  Request: requestWire,
  Session: sessionWire,
  Deleted: deletedWire,
} satisfies Record<string, z.ZodType>;
type Component = keyof typeof COMPONENTS;

/** What the document says of a field beyond its type. */
const FIELD_NOTES: Partial<Record<Component, Record<string, string>>> = {
  Topic: { summary: 'Accumulated summary; `summarize: true` requests append `[YYYY-MM-DD] …` lines.', model: 'Overrides CLAUDE_MODEL for this topic.' },
  TopicCreate: { model: 'Any id starting with `claude-`.' },
  RequestSubmit: {
    session_id: 'A session_id returned earlier; null or absent starts a new session.',
    model: 'Wins over the topic’s model and CLAUDE_MODEL.',
    summarize: 'Append a 1–2 sentence summary of the exchange to the topic’s summary (0 and 1 are read as false and true).',
  },
  Submitted: { status: '`pending`; on an idempotent replay, the request’s status now.' },
  Request: {
    model: 'The request’s own override, as sent.',
    error: 'Why it failed, e.g. the provider’s message.',
    resolved_model: 'Beyond the contract: the model that answered.',
  },
  Session: { session_id: 'The same as `id`.' },
};

/**
 * A zod schema as the JSON Schema of what goes over the wire: its input side (what a client sends, and
 * for ./wire.ts what `serializeSnake` writes: dates as strings), written the way a reader expects.
 */
export function jsonSchemaOf(schema: z.ZodType): Schema {
  const { $schema: _, ...json } = z.toJSONSchema(schema, { io: 'input' });
  return tidy(json);
}

/**
 * The same schema, said plainly: the long patterns zod writes for uuid and date-time are left to
 * `format`, zod's safe-integer bounds are left out, nested `anyOf`s are one list, and "a t or null" is
 * `type: [t, 'null']` (t's keywords apply only to a t, so nothing else changes).
 */
function tidy(node: Schema): Schema {
  const out: Schema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties') out[key] = Object.fromEntries(Object.entries(value as Record<string, Schema>).map(([name, property]) => [name, tidy(property)]));
    else if (key === 'items') out[key] = tidy(value as Schema);
    else if (key === 'anyOf') out[key] = (value as Schema[]).map(tidy).flatMap((option) => (option.anyOf && Object.keys(option).length === 1 ? (option.anyOf as Schema[]) : [option]));
    else out[key] = value;
  }
  if ((out.format === 'uuid' || out.format === 'date-time') && out.type === 'string') delete out.pattern;
  if (out.minimum === -Number.MAX_SAFE_INTEGER) delete out.minimum;
  if (out.maximum === Number.MAX_SAFE_INTEGER) delete out.maximum;
  const options = out.anyOf as Schema[] | undefined;
  const other = options?.length === 2 ? options.find((option) => option.type !== 'null') : undefined;
  if (other && options!.some((option) => option.type === 'null' && Object.keys(option).length === 1) && typeof other.type === 'string' && !('enum' in other) && !('const' in other)) {
    const { anyOf: _, ...rest } = out;
    return { ...other, type: [other.type, 'null'], ...rest };
  }
  return out;
}

function component(name: Component): Schema {
  const json = jsonSchemaOf(COMPONENTS[name]);
  const properties = json.properties as Record<string, Schema>;
  for (const [field, description] of Object.entries(FIELD_NOTES[name] ?? {})) properties[field] = { ...properties[field], description };
  return json;
}

/** The query parameters a route reads with `schema` (a z.object), each with its note. */
function queryParameters(schema: z.ZodObject, notes: Record<string, string>): Schema[] {
  const json = jsonSchemaOf(schema);
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries(json.properties as Record<string, Schema>).map(([name, property]) => ({
    name,
    in: 'query',
    required: required.has(name),
    ...(notes[name] ? { description: notes[name] } : {}),
    schema: property,
  }));
}

const ref = (name: Component | 'ErrorEnvelope'): Schema => ({ $ref: `#/components/schemas/${name}` });

/** The success envelope around `data`. */
const envelope = (data: Schema): Schema => ({
  type: 'object',
  required: ['success', 'data', 'error'],
  properties: { success: { const: true }, data, error: { type: 'null' } },
});

const ERROR_TEXT: Record<number, string> = {
  403: 'Missing or invalid `X-Api-Key`.',
  404: 'No such object in the key’s workspace (unknown or malformed id).',
  409: 'Conflict with the current state (see the operation).',
  422: 'The body, query or a header does not fit (FastAPI’s validation error), with `error.details.fieldErrors`.',
  429: 'Rate limit reached: `Retry-After`, `X-RateLimit-Remaining`, `RateLimit-Policy`, `RateLimit`.',
  502: 'The model failed; `error.message` is the provider’s message.',
};

interface Operation {
  summary: string;
  description?: string;
  tag: 'Topics' | 'Requests' | 'Sessions' | 'System';
  parameters?: Schema[];
  body?: { schema: Schema; example?: unknown };
  /** The success status and its `data`. */
  ok: { status: number; description: string; data: Schema; example?: unknown };
  errors: number[];
  /** Extra notes per error status, appended to the generic text. */
  notes?: Record<number, string>;
  public?: boolean;
}

function operation(op: Operation): Schema {
  const responses: Record<string, Schema> = {
    [op.ok.status]: {
      description: op.ok.description,
      content: { 'application/json': { schema: envelope(op.ok.data), ...(op.ok.example ? { example: { success: true, data: op.ok.example, error: null } } : {}) } },
    },
  };
  for (const status of op.errors) {
    responses[status] = {
      description: [ERROR_TEXT[status], op.notes?.[status]].filter(Boolean).join(' '),
      content: { 'application/json': { schema: ref('ErrorEnvelope') } },
    };
  }
  return {
    tags: [op.tag],
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    ...(op.public ? { security: [] } : {}),
    ...(op.parameters ? { parameters: op.parameters } : {}),
    ...(op.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: op.body.schema, ...(op.body.example ? { example: op.body.example } : {}) } } } }
      : {}),
    responses,
  };
}

const idParam = (what: string): Schema => ({ name: 'id', in: 'path', required: true, description: `The ${what}'s id (UUID).`, schema: { type: 'string' } });

const topicExample = {
  id: '550e8400-e29b-41d4-a716-446655440000',
  name: 'coding',
  system_prompt: 'Sei un esperto sviluppatore Python e TypeScript...',
  summary: 'Argomento per domande di programmazione',
  model: 'claude-sonnet-4-6',
  created_at: '2026-05-25T10:00:00.000Z',
  updated_at: '2026-05-25T10:00:00.000Z',
};

const requestExample = {
  id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  session_id: 'a1b2c3d4-0000-4000-8000-000000000000',
  topic_id: topicExample.id,
  prompt: 'Come implemento un middleware di autenticazione JWT in FastAPI?',
  model: null,
  summarize: true,
  status: 'completed',
  result: 'Per implementare un middleware JWT in FastAPI...',
  error: null,
  created_at: '2026-05-25T10:05:00.000Z',
  completed_at: '2026-05-25T10:05:45.000Z',
  resolved_model: 'claude-sonnet-4-6',
};

export function openApiDocument(serverUrl: string): Schema {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Multiverbe topic API',
      version: '1.0.0',
      description:
        'Topics with their system prompts, an asynchronous FIFO request queue, multi-turn sessions and summaries — wire-compatible with the OpusAgent contract. ' +
        'Every response is the envelope `{success, data, error: {code, message} | null}`. Keys belong to one workspace (Settings → API keys); everything a key sees and does is in that workspace.',
    },
    servers: [{ url: serverUrl }],
    security: [{ ApiKey: [] }],
    tags: [
      { name: 'Topics', description: 'Contexts with their own system prompt, model and accumulated summary.' },
      { name: 'Requests', description: 'The queue: each workspace’s requests run oldest first, one at a time unless the workspace allows more.' },
      { name: 'Sessions', description: 'Multi-turn conversations. A request without `session_id` starts one; send its id back to continue.' },
      { name: 'System', description: 'Health.' },
    ],
    paths: {
      '/api/topics': {
        get: operation({ tag: 'Topics', summary: 'List topics', ok: { status: 200, description: 'Every topic, oldest first.', data: { type: 'array', items: ref('Topic') } }, errors: [403] }),
        post: operation({
          tag: 'Topics',
          summary: 'Create a topic',
          body: { schema: ref('TopicCreate'), example: { name: 'coding', system_prompt: topicExample.system_prompt, summary: topicExample.summary, model: 'claude-sonnet-4-6' } },
          ok: { status: 201, description: 'Created.', data: ref('Topic'), example: topicExample },
          errors: [403, 409, 422],
          notes: { 409: 'A topic with this name exists.', 422: 'E.g. a model id that does not start with `claude-`.' },
        }),
      },
      '/api/topics/{id}': {
        get: operation({ tag: 'Topics', summary: 'Get a topic', parameters: [idParam('topic')], ok: { status: 200, description: 'The topic.', data: ref('Topic') }, errors: [403, 404] }),
        put: operation({
          tag: 'Topics',
          summary: 'Update a topic',
          description: 'Changes the fields sent; the others stay as they are.',
          parameters: [idParam('topic')],
          body: { schema: ref('TopicUpdate') },
          ok: { status: 200, description: 'The updated topic.', data: ref('Topic') },
          errors: [403, 404, 409, 422],
          notes: { 409: 'Another topic has this name.' },
        }),
        delete: operation({
          tag: 'Topics',
          summary: 'Delete a topic',
          description: 'Its completed and failed requests and its sessions are deleted with it.',
          parameters: [idParam('topic')],
          ok: { status: 200, description: 'Deleted.', data: ref('Deleted') },
          errors: [403, 404, 409],
          notes: { 409: 'The topic has pending or processing requests.' },
        }),
      },
      '/api/topics/{id}/summarize': {
        post: operation({
          tag: 'Topics',
          summary: 'Regenerate the full summary',
          description: 'Summarizes all completed exchanges (prompt and result) of the topic at once and replaces `summary` with it. Runs synchronously and returns the topic with the new summary.',
          parameters: [idParam('topic')],
          ok: { status: 200, description: 'The topic with its new summary.', data: ref('Topic') },
          errors: [403, 404, 409, 502],
          notes: { 409: 'The topic has no completed requests yet.' },
        }),
      },
      '/api/requests': {
        get: operation({
          tag: 'Requests',
          summary: 'List requests',
          parameters: queryParameters(listRequestsQuery, {
            status: 'Only requests in this status.',
            topic_id: 'Only requests of this topic.',
            session_id: 'Only requests of this session.',
            limit: 'At most this many, newest first (default 100).',
          }),
          ok: { status: 200, description: 'Newest first.', data: { type: 'array', items: ref('Request') } },
          errors: [403, 422],
        }),
        post: operation({
          tag: 'Requests',
          summary: 'Submit a request',
          description:
            'Queues the prompt and returns at once. Without `session_id` the request starts a new session whose id is returned; send it with later requests to continue the conversation (they carry its whole history). ' +
            'Rate limited per API key (RATE_LIMIT_PER_MINUTE, RATE_LIMIT_PER_HOUR). With an `Idempotency-Key` header, the same key and body within 24 hours return the same request (`Idempotent-Replayed: true`).',
          parameters: [{ name: 'Idempotency-Key', in: 'header', required: false, description: 'Any string up to 255 characters, unique per intended request.', schema: { type: 'string', maxLength: 255 } }],
          body: { schema: ref('RequestSubmit'), example: { prompt: requestExample.prompt, topic_id: topicExample.id, session_id: null, model: null, summarize: true } },
          ok: {
            status: 202,
            description: 'Queued (pending). Headers: `Location`, `X-RateLimit-Remaining`, `RateLimit-Policy`, `RateLimit`.',
            data: ref('Submitted'),
            example: { id: requestExample.id, session_id: requestExample.session_id, status: 'pending', created_at: requestExample.created_at },
          },
          errors: [403, 404, 409, 422, 429],
          notes: {
            404: 'Unknown `topic_id` or `session_id`.',
            409: 'The session is closed.',
            422: 'Also: the session belongs to another topic, or the `Idempotency-Key` was used with a different body.',
          },
        }),
      },
      '/api/requests/{id}': {
        get: operation({
          tag: 'Requests',
          summary: 'Get a request',
          description: 'Status, and the result once completed (or the error once failed). `?wait=N` long-polls: the response comes when the request finishes or after N seconds, whichever is first.',
          parameters: [idParam('request'), ...queryParameters(getRequestQuery, { wait: 'Seconds to wait for the request to finish (0–60).' })],
          ok: { status: 200, description: 'The request.', data: ref('Request'), example: requestExample },
          errors: [403, 404, 422],
        }),
        delete: operation({
          tag: 'Requests',
          summary: 'Delete a pending request',
          parameters: [idParam('request')],
          ok: { status: 200, description: 'Deleted.', data: ref('Deleted') },
          errors: [403, 404, 409],
          notes: { 409: 'The request is processing, completed or failed.' },
        }),
      },
      '/api/sessions': {
        get: operation({
          tag: 'Sessions',
          summary: 'List active sessions',
          parameters: queryParameters(listSessionsQuery, { topic_id: 'Only sessions of this topic.', include_closed: 'Closed sessions too (`true` or `1`).' }),
          ok: { status: 200, description: 'Most recently used first, with request counts.', data: { type: 'array', items: ref('Session') } },
          errors: [403, 422],
        }),
      },
      '/api/sessions/{id}': {
        get: operation({
          tag: 'Sessions',
          summary: 'Get a session with its requests',
          description: 'Beyond the contract: the conversation in order.',
          parameters: [idParam('session')],
          ok: { status: 200, description: 'The session and its requests, oldest first.', data: jsonSchemaOf(sessionWithRequestsWire) },
          errors: [403, 404],
        }),
        delete: operation({
          tag: 'Sessions',
          summary: 'Close a session',
          description: 'Its requests stay (pending ones still run); new requests to it are refused with 409. Closing a closed session changes nothing.',
          parameters: [idParam('session')],
          ok: { status: 200, description: 'The closed session.', data: ref('Session') },
          errors: [403, 404],
        }),
      },
      '/api/health': {
        get: operation({
          tag: 'System',
          summary: 'Health',
          description: 'The database, the background worker and the model backends. Public: no key needed. 503 when the database is unreachable.',
          public: true,
          ok: { status: 200, description: '`data.status` is `ok` or `degraded`.', data: { type: 'object', properties: { status: { enum: ['ok', 'degraded'] } } } },
          errors: [],
        }),
      },
    },
    components: {
      securitySchemes: { ApiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' } },
      schemas: {
        ErrorEnvelope: {
          type: 'object',
          required: ['success', 'data', 'error'],
          properties: {
            success: { const: false },
            data: { type: 'null' },
            error: {
              type: 'object',
              required: ['code', 'message'],
              properties: { code: { type: 'string', examples: ['forbidden', 'not_found', 'conflict', 'validation_failed', 'rate_limited', 'model_error'] }, message: { type: 'string' }, details: {} },
            },
          },
        },
        ...Object.fromEntries(Object.keys(COMPONENTS).map((name) => [name, component(name as Component)])),
      },
    },
  };
}
