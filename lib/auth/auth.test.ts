import { afterEach, describe, expect, it } from 'vitest';
import { resetConfigForTests } from '@/lib/config';
import { asService } from '@/lib/db';
import { setupTestDatabase } from '@/test/db';
import { createUser } from '@/test/fixtures';
import { mailboxKey, readMailbox, refreshSession, requestPasswordReset, resetPassword, signAccessToken, signIn, signUp, verifyAccessToken } from '.';

setupTestDatabase();

afterEach(() => {
  delete process.env.LOGIN_RATE_LIMIT_PER_EMAIL;
  resetConfigForTests();
});

const password = 'correct horse battery';

describe('accounts', () => {
  it('signs up with an argon2id hash, a profile and exactly one personal workspace', async () => {
    const session = await signUp({ email: 'Ada@Example.test', password, displayName: 'Ada' });
    expect(session.user.email).toBe('ada@example.test');
    const [user] = await asService((tx) => tx.query<{ encrypted_password: string }>('select encrypted_password from auth.users where id = $1', [session.user.id]));
    expect(user!.encrypted_password).toMatch(/^\$argon2id\$/);
    const workspaces = await asService((tx) =>
      tx.query<{ name: string; is_personal: boolean; role: string }>(
        `select w.name, w.is_personal, m.role from public.workspaces w join public.workspace_members m on m.workspace_id = w.id where m.user_id = $1`,
        [session.user.id],
      ),
    );
    expect(workspaces).toEqual([{ name: 'Personal', is_personal: true, role: 'owner' }]);
  });

  it('refuses a second account with the same email, whatever its case', async () => {
    await signUp({ email: 'dup@example.test', password });
    await expect(signUp({ email: 'DUP@example.test', password })).rejects.toMatchObject({ status: 409 });
  });

  it('signs in with the right password only, with one message for both failures', async () => {
    const user = await createUser('signin');
    await expect(signIn({ email: user.email, password }, '10.0.0.1')).resolves.toMatchObject({ user: { id: user.id } });
    const wrongPassword = await signIn({ email: user.email, password: 'nope' }, '10.0.0.1').catch((e) => e);
    const noAccount = await signIn({ email: 'nobody@example.test', password }, '10.0.0.1').catch((e) => e);
    expect(wrongPassword.status).toBe(401);
    expect(noAccount.message).toBe(wrongPassword.message);
  });

  it('rate limits sign-in per email with 429 and Retry-After', async () => {
    process.env.LOGIN_RATE_LIMIT_PER_EMAIL = '3';
    resetConfigForTests();
    const user = await createUser('limited');
    for (let i = 0; i < 3; i++) await signIn({ email: user.email, password: 'wrong' }, `10.0.1.${i}`).catch(() => {});
    const error = await signIn({ email: user.email, password }, '10.0.1.9').catch((e) => e);
    expect(error.status).toBe(429);
    expect(Number(error.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('issues a Supabase-shaped access token that verifies, and rejects a tampered one', async () => {
    const user = await createUser('jwt');
    const token = await signAccessToken(user);
    const [, payload] = token.split('.');
    expect(JSON.parse(Buffer.from(payload!, 'base64url').toString())).toMatchObject({ sub: user.id, email: user.email, role: 'authenticated' });
    await expect(verifyAccessToken(token)).resolves.toEqual(user);
    const forged = Buffer.from(JSON.stringify({ sub: '00000000-0000-0000-0000-000000000000', email: 'x@y.z', role: 'authenticated' })).toString('base64url');
    await expect(verifyAccessToken(token.replace(payload!, forged))).resolves.toBeNull();
  });

  it('rotates refresh tokens and revokes the family when a rotated one is reused', async () => {
    const session = await signIn({ email: (await createUser('refresh')).email, password }, '10.0.2.1');
    const next = await refreshSession(session.refreshToken);
    expect(next?.user.id).toBe(session.user.id);
    expect(await refreshSession(session.refreshToken)).toBeNull();
    expect(await refreshSession(next!.refreshToken)).toBeNull();
  });

  it('resets a password through a one-time emailed link that signs out other sessions', async () => {
    const user = await createUser('reset');
    const session = await signIn({ email: user.email, password }, '10.0.3.1');
    await requestPasswordReset(user.email);
    await requestPasswordReset('unknown@example.test');
    const [mail] = (await readMailbox({ user }))!.emails;
    expect(mail?.kind).toBe('password_reset');
    expect((await readMailbox({ key: await mailboxKey() }, { email: 'unknown@example.test' }))!.emails).toEqual([]);
    const token = new URL(mail!.link!).searchParams.get('token')!;
    await resetPassword(token, 'a brand new password');
    await expect(resetPassword(token, 'another new password')).rejects.toMatchObject({ status: 410 });
    await expect(signIn({ email: user.email, password }, '10.0.3.2')).rejects.toMatchObject({ status: 401 });
    await expect(signIn({ email: user.email, password: 'a brand new password' }, '10.0.3.3')).resolves.toBeTruthy();
    expect(await refreshSession(session.refreshToken)).toBeNull();
  });
});
