import { z } from 'zod';
import { REQUEST_STATUSES } from './schemas';

/**
 * The contract's objects, snake_case as on the wire. Each schema says two things: what a row read with
 * the columns below holds (`z.output`, dates as Date) and what goes over the wire once `serializeSnake`
 * has written it (`z.input`, dates as ISO 8601 strings). The OpenAPI document's response schemas are
 * generated from them (./openapi.ts), and its test checks the routes' answers against the document.
 */
const dateTime = z.codec(z.iso.datetime(), z.date(), { decode: (iso) => new Date(iso), encode: (date) => date.toISOString() });
const id = z.uuid();

export const topicWire = z.strictObject({
  id,
  name: z.string(),
  system_prompt: z.string(),
  summary: z.string(),
  model: z.string().nullable(),
  created_at: dateTime,
  updated_at: dateTime,
});

export const requestWire = z.strictObject({
  id,
  session_id: id,
  topic_id: id,
  prompt: z.string(),
  model: z.string().nullable(),
  summarize: z.boolean(),
  status: z.enum(REQUEST_STATUSES),
  result: z.string().nullable(),
  error: z.string().nullable(),
  created_at: dateTime,
  completed_at: dateTime.nullable(),
  resolved_model: z.string().nullable(),
});

/** The 202 of POST /api/requests. */
export const submittedWire = z.strictObject({ id, session_id: id, status: z.enum(REQUEST_STATUSES), created_at: dateTime });

export const sessionWire = z.strictObject({
  id,
  session_id: id,
  topic_id: id,
  request_count: z.number().int(),
  created_at: dateTime,
  last_request_at: dateTime.nullable(),
  closed_at: dateTime.nullable(),
});

/** GET /api/sessions/{id}, beyond the contract: the session and its requests in order. */
export const sessionWithRequestsWire = sessionWire.extend({ requests: z.array(requestWire) });

export const deletedWire = z.strictObject({ id, deleted: z.literal(true) });

export type TopicRow = z.output<typeof topicWire>;
export type TopicWire = z.input<typeof topicWire>;
export type RequestRow = z.output<typeof requestWire>;
export type RequestWire = z.input<typeof requestWire>;
export type SubmittedWire = z.input<typeof submittedWire>;
export type SessionRow = z.output<typeof sessionWire>;
export type SessionWire = z.input<typeof sessionWire>;
export type SessionWithRequestsWire = z.input<typeof sessionWithRequestsWire>;

export const TOPIC_COLUMNS = 't.id, t.name, t.system_prompt, t.summary, t.model, t.created_at, t.updated_at';
export const REQUEST_COLUMNS =
  'r.id, r.session_id, r.topic_id, r.prompt, r.model, r.summarize, r.status, r.result, r.error, r.created_at, r.completed_at, r.resolved_model';
export const SESSION_COLUMNS = `s.id, s.id as session_id, s.topic_id,
  (select count(*) from public.topic_requests r where r.session_id = s.id and r.workspace_id = s.workspace_id) as request_count,
  s.created_at,
  (select max(r.created_at) from public.topic_requests r where r.session_id = s.id and r.workspace_id = s.workspace_id) as last_request_at,
  s.closed_at`;
