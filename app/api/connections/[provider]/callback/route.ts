import { notFound, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { config } from '@/lib/config';
import { completeConnection, isProvider } from '@/lib/connections';

/**
 * Where Google and GitHub send the browser back after consent (the redirect URI registered with them).
 * The state must be one the signed-in person started; then back to Settings → Connections, which says
 * what happened.
 */
export const GET = route<{ provider: string }>(async ({ req, params }) => {
  const user = await requireUser(req);
  if (!isProvider(params.provider)) throw notFound('connection');
  const { workspaceId, outcome } = await completeConnection(user, params.provider, new URL(req.url));
  const back = new URL(`/w/${workspaceId}/settings/connections`, config().APP_URL);
  back.searchParams.set(outcome, params.provider);
  // A Response of our own: Response.redirect's headers are immutable, and route() adds the request id.
  return new Response(null, { status: 303, headers: { location: back.href } });
});
