import { notFound, route } from '@/lib/api';
import { applyCookies, isMailboxKey, MAILBOX_COOKIE } from '@/lib/auth';
import { config } from '@/lib/config';

const KEY_COOKIE_DAYS = 30;

/**
 * The link printed at start (`/dev/mailbox/unlock?key=…`) and the mailbox page's key form: keeps a
 * right key in an HttpOnly cookie and opens the mailbox, so the key leaves the address bar at once.
 */
export const GET = route(async ({ req }) => {
  if (!config().devMailbox) throw notFound('devMailbox');
  const key = new URL(req.url).searchParams.get('key');
  if (!(await isMailboxKey(key))) return new Response(null, { status: 303, headers: { location: '/dev/mailbox?unlock=failed' } });
  const response = new Response(null, { status: 303, headers: { location: '/dev/mailbox' } });
  return applyCookies(response, [{ name: MAILBOX_COOKIE, value: encodeURIComponent(key!), maxAge: KEY_COOKIE_DAYS * 24 * 3600 }], req);
});
