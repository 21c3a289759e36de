import { serializeSnake } from '@/lib/api';
import type { RequestStatus } from './schemas';

/** The contract's objects exactly as they go over the wire: snake_case, ISO 8601 dates. */

export interface TopicWire {
  id: string;
  name: string;
  system_prompt: string;
  summary: string;
  model: string | null;
  created_at: string;
  updated_at: string;
}

export interface RequestWire {
  id: string;
  session_id: string;
  topic_id: string;
  prompt: string;
  /** The request's own override, as sent (null: the topic's model or CLAUDE_MODEL). */
  model: string | null;
  summarize: boolean;
  status: RequestStatus;
  result: string | null;
  error: string | null;
  created_at: string;
  completed_at: string | null;
  /** Beyond the contract: the model that answered, once known. */
  resolved_model: string | null;
}

/** The 202 of POST /api/requests. */
export interface SubmittedWire {
  id: string;
  session_id: string;
  status: RequestStatus;
  created_at: string;
}

export interface SessionWire {
  /** The contract names sessions by `session_id`; `id` is the same value, for clients that read that. */
  id: string;
  session_id: string;
  topic_id: string;
  request_count: number;
  created_at: string;
  last_request_at: string | null;
  closed_at: string | null;
}

export const TOPIC_COLUMNS = 't.id, t.name, t.system_prompt, t.summary, t.model, t.created_at, t.updated_at';
export const REQUEST_COLUMNS =
  'r.id, r.session_id, r.topic_id, r.prompt, r.model, r.summarize, r.status, r.result, r.error, r.created_at, r.completed_at, r.resolved_model';
export const SESSION_COLUMNS = `s.id, s.id as session_id, s.topic_id,
  (select count(*) from public.topic_requests r where r.session_id = s.id and r.workspace_id = s.workspace_id) as request_count,
  s.created_at,
  (select max(r.created_at) from public.topic_requests r where r.session_id = s.id and r.workspace_id = s.workspace_id) as last_request_at,
  s.closed_at`;

/** Rows selected with the columns above become wire objects (dates as ISO strings). */
export const wire = <T>(row: unknown): T => serializeSnake(row) as T;
