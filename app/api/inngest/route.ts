import type { NextRequest } from 'next/server';
import { serve } from 'inngest/next';
import { ApiError, route } from '@/lib/api';
import { config } from '@/lib/config';
import { inngest } from '@/lib/events';
import { functions } from '@/inngest/functions';

const inngestServe = serve({ client: inngest, functions: functions.map((fn) => fn.inngestFunction) });

/**
 * Inngest Cloud syncs (PUT), inspects (GET) and invokes (POST) the background functions here, and its
 * handler checks every request's signature. Without Inngest keys the local executor runs them and this
 * endpoint is closed. Inngest's handler reads a body as JSON before it checks the signature (anything
 * else would throw inside it), so a body that is not JSON is refused first.
 */
function inngestRoute(handler: (req: NextRequest, res: unknown) => Promise<Response>) {
  return route(async ({ req }) => {
    if (!config().inngestCloud) {
      throw new ApiError('not_found', 'api.inngest.notConfigured');
    }
    const body = await req.clone().text();
    try {
      if (body) JSON.parse(body);
    } catch {
      throw new ApiError('bad_request', 'api.request.notJson');
    }
    return handler(req as NextRequest, undefined);
  });
}

export const GET = inngestRoute(inngestServe.GET);
export const POST = inngestRoute(inngestServe.POST);
export const PUT = inngestRoute(inngestServe.PUT);
