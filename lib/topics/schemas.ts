import { z } from 'zod';

/**
 * The OpusAgent contract's bodies and queries, snake_case as on the wire. Anything that does not fit is
 * a 422 with field errors, as FastAPI/Pydantic answers.
 */

/** The contract accepts any id starting with `claude-`, so models released later work unchanged. */
export const modelId = z
  .string()
  .max(100, 'api.field.maxChars')
  .regex(/^claude-[A-Za-z0-9._-]+$/, 'api.topics.modelId');

const name = z.string().trim().min(1, 'api.topics.nameRequired').max(100, 'api.field.maxChars');
const systemPrompt = z.string().max(100_000, 'api.topics.max100k');
const summary = z.string().max(200_000, 'api.topics.max200k');

// Pydantic reads 0/1 and "true"/"false" as booleans too; a client written for the SQLite integer column may send them.
const flag = z.union([z.boolean(), z.literal(0).transform(() => false), z.literal(1).transform(() => true)]);

export const createTopicSchema = z.object({
  name,
  system_prompt: systemPrompt,
  summary: summary.default(''),
  model: modelId.nullish().transform((v) => v ?? null),
});

/** PUT: any of the fields; the ones left out stay as they are. */
export const updateTopicSchema = z.object({
  name: name.optional(),
  system_prompt: systemPrompt.optional(),
  summary: summary.optional(),
  model: modelId.nullish(),
});

export const submitRequestSchema = z.object({
  prompt: z
    .string()
    .max(200_000, 'api.topics.max200k')
    .refine((v) => v.trim().length > 0, 'api.topics.promptRequired'),
  topic_id: z.string().min(1, 'api.topics.topicRequired'),
  session_id: z.string().nullish().transform((v) => v ?? null),
  model: modelId.nullish().transform((v) => v ?? null),
  summarize: flag.nullish().transform((v) => v ?? false),
});

export const REQUEST_STATUSES = ['pending', 'processing', 'completed', 'failed'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

export const listRequestsQuery = z.object({
  status: z.enum(REQUEST_STATUSES).optional(),
  topic_id: z.string().optional(),
  session_id: z.string().optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

export const getRequestQuery = z.object({
  /** Long poll: wait up to this many seconds for the request to finish. */
  wait: z.coerce.number().int().min(0).max(60).optional(),
});

export const listSessionsQuery = z.object({
  topic_id: z.string().optional(),
  /** Closed sessions too (the contract lists active ones). */
  include_closed: z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .transform((v) => v === 'true' || v === '1'),
});

export type CreateTopicInput = z.infer<typeof createTopicSchema>;
export type UpdateTopicInput = z.infer<typeof updateTopicSchema>;
export type SubmitRequestInput = z.infer<typeof submitRequestSchema>;
export type ListRequestsQuery = z.infer<typeof listRequestsQuery>;
