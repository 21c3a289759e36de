import type { z } from 'zod';

export type ErrorCode =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'gone'
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
  validation_failed: 422,
  rate_limited: 429,
  quota_exceeded: 429,
  internal: 500,
};

/** An error meant for the caller: its message is a sentence they can act on. */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.status = statusOf[code];
  }
}

export const notFound = (what: string) => new ApiError('not_found', `${what} was not found.`);
export const forbidden = (message = 'You do not have permission to do that.') => new ApiError('forbidden', message);
/** What a member may not do, only the workspace's owner and admins; `what` finishes the sentence: "manage routines". */
export const managersOnly = (what: string) => forbidden(`Only the owner and admins can ${what}.`);
/** What only the workspace's owner may do; `what` finishes the sentence: "delete the workspace". */
export const ownerOnly = (what: string) => forbidden(`Only the owner can ${what}.`);
export const unauthorized = (message = 'Sign in to continue.') => new ApiError('unauthorized', message);
export const conflict = (message: string, details?: unknown) => new ApiError('conflict', message, details);
/** Input that passed its schema but breaks a rule: the message, and under the field it is about the same or a shorter one. */
export const invalidField = (field: string, message: string, fieldMessage = message) =>
  new ApiError('validation_failed', message, { fieldErrors: { [field]: [fieldMessage] } });

export function validationError(error: z.ZodError, where = 'body') {
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join('.') : '_';
    (fieldErrors[key] ??= []).push(issue.message);
  }
  const first = error.issues[0];
  const summary = first ? `${first.path.join('.') || where}: ${first.message}` : 'invalid input';
  return new ApiError('validation_failed', `The request ${where} is invalid (${summary}).`, { fieldErrors });
}

/**
 * Database errors that carry a meaning for the caller. Our own SQL raises P04xx codes
 * (P0403 → 403 …); constraint violations become 409/422; RLS refusals become 403.
 */
export function fromDatabaseError(error: unknown): ApiError | undefined {
  const e = error as { code?: string; message?: string; constraint?: string; constraint_name?: string };
  const message = e?.message ?? '';
  switch (e?.code) {
    case 'P0401':
      return new ApiError('unauthorized', message);
    case 'P0403':
      return new ApiError('forbidden', message);
    case 'P0404':
      return new ApiError('not_found', message);
    case 'P0409':
      return new ApiError('conflict', message);
    case 'P0410':
      return new ApiError('gone', message);
    case '23505':
      return new ApiError('conflict', 'That already exists.', { constraint: e.constraint_name ?? e.constraint });
    case '23514':
    case '22P02':
      return new ApiError('validation_failed', 'A value is not allowed here.', { constraint: e.constraint_name ?? e.constraint });
    case '42501':
      return new ApiError('forbidden', 'You do not have permission to do that.');
    default:
      return undefined;
  }
}

/** Rethrows a database error as the ApiError it means (lib functions use it so every caller sees the same). */
export function rethrowAsApiError(error: unknown): never {
  throw fromDatabaseError(error) ?? error;
}
