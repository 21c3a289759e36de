import { z } from 'zod';
import { ok, parseJson, route } from '@/lib/api';
import { passwordSchema, resetPassword } from '@/lib/auth';

export const POST = route(async ({ req }) => {
  const { token, password } = await parseJson(req, z.object({ token: z.string().min(20).max(200), password: passwordSchema }));
  await resetPassword(token, password);
  return ok({ message: 'Your password was changed. Sign in with the new one.' });
});
