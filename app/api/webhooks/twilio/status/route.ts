import { forbidden, route } from '@/lib/api';
import { twilioStatusCallback } from '@/lib/channels';

/** Twilio's delivery reports (lib/channels): signed with the workspace's auth token, else 403 and nothing changes. */
export const POST = route(async ({ req }) => {
  const url = new URL(req.url);
  const form = new URLSearchParams(await req.text());
  const outcome = await twilioStatusCallback({
    pathAndQuery: url.pathname + url.search,
    signature: req.headers.get('x-twilio-signature'),
    params: Object.fromEntries(form),
  });
  if (outcome === 'forbidden') throw forbidden();
  return new Response(null, { status: 204 });
});
