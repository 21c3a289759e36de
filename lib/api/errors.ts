import type { z } from 'zod';
import type { MessageKey } from '@/lib/i18n';
import { isApiMessageKey, renderMessage } from './messages';

export type ErrorCode =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'gone'
  | 'payload_too_large'
  | 'validation_failed'
  | 'rate_limited'
  | 'quota_exceeded'
  | 'internal';

const statusOf: Record<ErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  payload_too_large: 413,
  validation_failed: 422,
  rate_limited: 429,
  quota_exceeded: 429,
  internal: 500,
};

/** What an API error may say: the `api.*` messages of lib/i18n's dictionaries, so every language has each. */
export type ApiMessageKey = Extract<MessageKey, `api.${string}`>;
/** The end of the keys under `prefix`: `KeysUnder<'api.notFound.'>` is 'workspace' | 'agent' | … */
type KeysUnder<Prefix extends string> = ApiMessageKey extends infer K ? (K extends `${Prefix}${infer Rest}` ? Rest : never) : never;

/** Values a message names: text and numbers as they are; a message or a field's problem in the same language. */
export type MessageParams = Record<string, string | number | ApiMessage | FieldProblem>;
/** A sentence for the caller, kept as a key and its values until it is rendered in the reader's language. */
export interface ApiMessage {
  key: ApiMessageKey;
  params?: MessageParams;
}
/**
 * What is wrong with one field: a sentence of ours, or the zod issue that said so. A schema's own
 * message is a key (`.min(1, 'api.workspaces.nameRequired')`); zod's built-in ones are zod's words, rendered
 * by zod's locale for the language.
 */
export type FieldProblem = ApiMessage | z.core.$ZodIssue;
export type FieldErrors = Record<string, FieldProblem[]>;

/**
 * An error meant for the caller: a sentence they can act on, as a key into the dictionaries and the
 * values it names. `message` is its English rendering (logs, programs, tests); `route()` and
 * `errorMessage` render it in the reader's language.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly details?: Record<string, unknown>;
  readonly fieldErrors?: FieldErrors;
  readonly headers?: Record<string, string>;
  constructor(
    readonly code: ErrorCode,
    readonly key: ApiMessageKey,
    readonly params?: MessageParams,
    extra: { details?: Record<string, unknown>; fieldErrors?: FieldErrors; headers?: Record<string, string> } = {},
  ) {
    super(renderMessage({ key, params }, 'en'));
    this.status = statusOf[code];
    this.details = extra.details;
    this.fieldErrors = extra.fieldErrors;
    this.headers = extra.headers;
  }
}

/** Whatever the caller asked for that does not exist or that they may not see (indistinguishable on purpose). */
export const notFound = (what: KeysUnder<'api.notFound.'>, params?: MessageParams) => new ApiError('not_found', `api.notFound.${what}`, params);
export const forbidden = (key: ApiMessageKey = 'api.forbidden', params?: MessageParams) => new ApiError('forbidden', key, params);
/** What a member may not do, only the workspace's owner and admins: one sentence each, `api.managersOnly.<what>`. */
export const managersOnly = (what: ManagersOnly) => forbidden(`api.managersOnly.${what}`);
/** What only the workspace's owner may do: one sentence each, `api.ownerOnly.<what>`. */
export const ownerOnly = (what: OwnerOnly) => forbidden(`api.ownerOnly.${what}`);
export type ManagersOnly = KeysUnder<'api.managersOnly.'>;
export type OwnerOnly = KeysUnder<'api.ownerOnly.'>;
export const unauthorized = (key: ApiMessageKey = 'api.unauthorized', params?: MessageParams) => new ApiError('unauthorized', key, params);
export const conflict = (key: ApiMessageKey, params?: MessageParams, details?: Record<string, unknown>) => new ApiError('conflict', key, params, { details });
/** Input that passed its schema but breaks a rule: the message, and under the field it is about the same or a shorter one. */
export const invalidField = (field: string, key: ApiMessageKey, params?: MessageParams, fieldKey: ApiMessageKey = key) =>
  new ApiError('validation_failed', key, params, { fieldErrors: { [field]: [{ key: fieldKey, params }] } });

/**
 * Input that fits a schema, or a 422 naming each field. Parsed with `reportInput` because zod's words
 * for a wrong type name what was received, in whichever language they are rendered later.
 */
export function validate<S extends z.ZodType>(schema: S, value: unknown, where: 'body' | 'query' = 'body'): z.infer<S> {
  const result = schema.safeParse(value, { reportInput: true });
  if (!result.success) throw validationError(result.error.issues, where);
  return result.data;
}

/** The 422 for failed issues: each under its field, the first also in the sentence. */
export function validationError(
  issues: readonly z.core.$ZodIssue[],
  where: 'body' | 'query',
  sentence: (field: string | ApiMessage, problem: FieldProblem) => ApiMessage = (field, problem) => ({
    key: where === 'body' ? 'api.request.bodyInvalid' : 'api.request.queryInvalid',
    params: { field, problem },
  }),
): ApiError {
  const fieldErrors: FieldErrors = {};
  for (const issue of issues) (fieldErrors[issue.path.length ? issue.path.join('.') : '_'] ??= []).push(issue);
  const first = issues[0]!;
  const { key, params } = sentence(first.path.join('.') || { key: where === 'body' ? 'api.request.body' : 'api.request.query' }, first);
  return new ApiError('validation_failed', key, params, { fieldErrors });
}

/**
 * Database errors that carry a meaning for the caller. Our own SQL raises P04xx codes (P0403 → 403 …)
 * with the message's key as its HINT, so the sentence is read from the dictionaries, never matched
 * from the SQL's English; constraint violations become 409/422; RLS refusals become 403.
 */
export function fromDatabaseError(error: unknown): ApiError | undefined {
  const e = error as { code?: string; hint?: string; constraint?: string; constraint_name?: string };
  const raised: ApiMessageKey = isApiMessageKey(e?.hint) ? e.hint : 'api.database.refused';
  switch (e?.code) {
    case 'P0401':
      return new ApiError('unauthorized', raised);
    case 'P0403':
      return new ApiError('forbidden', raised);
    case 'P0404':
      return new ApiError('not_found', raised);
    case 'P0409':
      return new ApiError('conflict', raised);
    case 'P0410':
      return new ApiError('gone', raised);
    case '23505':
      return new ApiError('conflict', 'api.database.exists', undefined, { details: { constraint: e.constraint_name ?? e.constraint } });
    case '23514':
    case '22P02':
      return new ApiError('validation_failed', 'api.database.notAllowed', undefined, { details: { constraint: e.constraint_name ?? e.constraint } });
    case '42501':
      return new ApiError('forbidden', 'api.forbidden');
    default:
      return undefined;
  }
}

/** Rethrows a database error as the ApiError it means (lib functions use it so every caller sees the same). */
export function rethrowAsApiError(error: unknown): never {
  throw fromDatabaseError(error) ?? error;
}
