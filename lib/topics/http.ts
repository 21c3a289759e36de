import type { z } from 'zod';
import { ApiError, checkInput, route, validate, type RouteContext } from '@/lib/api';
import { UpstreamError } from './topics';

/**
 * The topic API's route wrapper: the app's `route` (request id, access log, error envelope; English
 * unless the client asks otherwise by Accept-Language) plus the two places where the contract's FastAPI
 * answers differ from the app's conventions: a body that is not JSON is a 422 (FastAPI's json_invalid),
 * and a failed model call behind an endpoint is a 502.
 */
export function contractRoute<P = Record<string, never>>(fn: (ctx: RouteContext<P>) => Promise<Response>) {
  return route<P>(async (ctx) => {
    try {
      return await fn(ctx);
    } catch (error) {
      if (!(error instanceof UpstreamError)) throw error;
      return Response.json(
        { success: false, data: null, error: { code: 'model_error', message: error.message } },
        { status: 502, headers: { 'cache-control': 'no-store' } },
      );
    }
  }, 'programs');
}

export async function parseBody<S extends z.ZodType>(req: Request, schema: S): Promise<z.infer<S>> {
  let body: unknown;
  try {
    const text = await req.text();
    body = text.length ? JSON.parse(text) : undefined;
  } catch {
    throw new ApiError('validation_failed', 'api.request.notJson', undefined, { fieldErrors: { _: [{ key: 'api.topics.jsonDecodeError' }] } });
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiError('validation_failed', 'api.topics.notAnObject', undefined, { fieldErrors: { _: [{ key: 'api.topics.expectedObject' }] } });
  }
  checkInput(body, 'body');
  return validate(schema, body);
}
