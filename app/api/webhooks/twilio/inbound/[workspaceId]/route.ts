import { ApiError, forbidden, route } from '@/lib/api';
import { receiveTwilio } from '@/lib/inbound';

type Params = { workspaceId: string };

/** Form fields as Twilio signed them; a body that is not a form has none (and its signature cannot match). */
async function formParams(req: Request): Promise<Record<string, string>> {
  const form = await req.formData().catch(() => null);
  const params: Record<string, string> = {};
  form?.forEach((value, key) => {
    if (typeof value === 'string') params[key] = value;
  });
  return params;
}

// Twilio's "a message comes in" webhook: anything not signed by the workspace's Twilio account is 403,
// and changes nothing. The answer is empty TwiML: the reply, if any, comes later through the outbox.
export const POST = route<Params>(async ({ req, params }) => {
  if (Number(req.headers.get('content-length') ?? 0) > 64 * 1024) throw new ApiError('payload_too_large', 'api.inbound.tooLarge', { maximum: 64 * 1024 });
  const outcome = await receiveTwilio(params.workspaceId, req.headers.get('x-twilio-signature'), await formParams(req));
  if (!outcome.ok) throw forbidden();
  return new Response('<?xml version="1.0" encoding="UTF-8"?><Response></Response>', { status: 200, headers: { 'content-type': 'text/xml' } });
}, 'programs');
