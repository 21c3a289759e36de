import { z } from 'zod';
import { notFound, ok, parseQuery, route } from '@/lib/api';
import { listOutbox } from '@/lib/auth';
import { config } from '@/lib/config';

/** The outbox of mail that would have been sent; embedded/dev installs only. */
export const GET = route(async ({ req }) => {
  if (!config().devMailbox) throw notFound('The dev mailbox');
  const { email } = parseQuery(req, z.object({ email: z.string().email().optional() }));
  return ok(await listOutbox({ email }));
});
