import type { z } from 'zod';
import { ApiError, checkInput, route, validationError, type RouteContext } from '@/lib/api';
import { UpstreamError } from './topics';

/**
 * The topic API's route wrapper: the app's `route` (request id, access log, error envelope) plus the two
 * places where the contract's FastAPI answers differ from the app's conventions: a body that is not
 * JSON is a 422 (FastAPI's json_invalid), and a failed model call behind an endpoint is a 502.
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
  });
}

export async function parseBody<S extends z.ZodType>(req: Request, schema: S): Promise<z.infer<S>> {
  let body: unknown;
  try {
    const text = await req.text();
    body = text.length ? JSON.parse(text) : undefined;
  } catch {
    throw new ApiError('validation_failed', 'The request body is not valid JSON.', { fieldErrors: { _: ['JSON decode error'] } });
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiError('validation_failed', 'The request body must be a JSON object.', { fieldErrors: { _: ['Expected a JSON object'] } });
  }
  checkInput(body, 'body');
  const result = schema.safeParse(body);
  if (!result.success) throw validationError(result.error);
  return result.data;
}
