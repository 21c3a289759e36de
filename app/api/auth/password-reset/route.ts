import { z } from 'zod';
import { ok, parseJson, route } from '@/lib/api';
import { emailSchema, requestPasswordReset } from '@/lib/auth';

export const POST = route(async ({ req }) => {
  const { email } = await parseJson(req, z.object({ email: emailSchema }));
  await requestPasswordReset(email);
  return ok({ message: 'If an account exists for this address, we sent it a link to reset the password.' }, 202);
});
