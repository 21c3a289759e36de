import { z } from 'zod';
import { notFound, ok, parseQuery, route, unauthorized } from '@/lib/api';
import { getRequestUser, isMailboxKey, MAILBOX_COOKIE, readCookie, readMailbox } from '@/lib/auth';
import { config } from '@/lib/config';

/**
 * The outbox of mail that would have been sent; embedded/dev installs only. A signed-in person gets
 * the mail to their own address; the mailbox key (its cookie) opens all of it; anyone else a 401,
 * before the query is read, so it says nothing about what the route accepts.
 */
export const GET = route(async ({ req }) => {
  if (!config().devMailbox) throw notFound('devMailbox');
  const reader = { user: await getRequestUser(req), key: readCookie(req.headers.get('cookie'), MAILBOX_COOKIE) };
  if (!reader.user && !(await isMailboxKey(reader.key))) {
    throw unauthorized('api.auth.mailboxClosed');
  }
  const { email } = parseQuery(req, z.object({ email: z.string().email().optional() }));
  return ok((await readMailbox(reader, { email }))!.emails);
});
