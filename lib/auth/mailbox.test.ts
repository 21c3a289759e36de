import { afterEach, describe, expect, it } from 'vitest';
import { GET as mailboxRoute } from '@/app/api/dev/mailbox/route';
import { GET as unlockRoute } from '@/app/dev/mailbox/unlock/route';
import { resetConfigForTests } from '@/lib/config';
import { asService, type SessionUser } from '@/lib/db';
import { setupTestDatabase } from '@/test/db';
import { createUser } from '@/test/fixtures';
import { ACCESS_COOKIE, MAILBOX_COOKIE, mailboxKey, readMailbox, requestPasswordReset, signAccessToken } from '.';

/**
 * The dev mailbox holds every reset and invitation link, and it is on by default (embedded mode):
 * nobody may read another person's mail without the key printed at start.
 */

setupTestDatabase();

afterEach(() => {
  delete process.env.DEV_MAILBOX;
  delete process.env.DEV_MAILBOX_KEY;
  resetConfigForTests();
});

async function getMailbox({ user, key, email }: { user?: SessionUser; key?: string; email?: string } = {}) {
  const cookies = [user && `${ACCESS_COOKIE}=${await signAccessToken(user)}`, key && `${MAILBOX_COOKIE}=${encodeURIComponent(key)}`].filter(Boolean);
  const url = `http://localhost/api/dev/mailbox${email ? `?email=${encodeURIComponent(email)}` : ''}`;
  const res = await mailboxRoute(new Request(url, { headers: cookies.length ? { cookie: cookies.join('; ') } : {} }));
  return { status: res.status, text: await res.text() };
}

const unlock = (key: string) => unlockRoute(new Request(`http://localhost/dev/mailbox/unlock?key=${encodeURIComponent(key)}`));

/** Someone asks for a reset of `victim`'s password: the link that takes the account over is in the outbox. */
async function victimWithResetLink() {
  const victim = await createUser('victim');
  await requestPasswordReset(victim.email);
  const [row] = await asService((tx) => tx.query<{ link: string }>(`select link from private.email_outbox where to_email = $1`, [victim.email]));
  return { victim, link: row!.link };
}

describe('dev mailbox', () => {
  it('answers 401 to anyone without a session or the key, naming no address, link or count', async () => {
    const { victim, link } = await victimWithResetLink();
    for (const res of [await getMailbox(), await getMailbox({ email: victim.email }), await getMailbox({ key: 'not-the-key'.repeat(4), email: victim.email })]) {
      expect(res.status).toBe(401);
      expect(JSON.parse(res.text)).toMatchObject({ success: false, data: null, error: { code: 'unauthorized' } });
      expect(res.text).not.toContain(victim.email);
      expect(res.text).not.toContain(link);
    }
  });

  it('shows a signed-in person only the mail sent to them, never another person’s reset link', async () => {
    const { victim, link } = await victimWithResetLink();
    const other = await createUser('other');
    await requestPasswordReset(other.email);

    const asOther = await getMailbox({ user: other, email: victim.email });
    expect(asOther.status).toBe(200);
    expect(JSON.parse(asOther.text).data).toEqual([]);
    const otherMail = JSON.parse((await getMailbox({ user: other })).text).data as Array<{ toEmail: string }>;
    expect(otherMail.map((m) => m.toEmail)).toEqual([other.email]);
    expect(JSON.stringify(otherMail)).not.toContain(link);

    const own = JSON.parse((await getMailbox({ user: victim })).text).data as Array<{ toEmail: string; kind: string; link: string }>;
    expect(own).toEqual([expect.objectContaining({ toEmail: victim.email, kind: 'password_reset', link })]);
  });

  it('opens all of it with the key: the unlock link keeps it in an HttpOnly cookie, a wrong key sets nothing', async () => {
    const { victim, link } = await victimWithResetLink();
    const other = await createUser('other');
    await requestPasswordReset(other.email);

    const wrong = await unlock('x'.repeat(32));
    expect(wrong.status).toBe(303);
    expect(wrong.headers.get('location')).toBe('/dev/mailbox?unlock=failed');
    expect(wrong.headers.get('set-cookie')).toBeNull();

    const opened = await unlock(await mailboxKey());
    expect(opened.status).toBe(303);
    expect(opened.headers.get('location')).toBe('/dev/mailbox');
    const cookie = opened.headers.get('set-cookie')!;
    expect(cookie).toMatch(new RegExp(`^${MAILBOX_COOKIE}=[^;]+; Path=/; HttpOnly; SameSite=Lax`));
    const key = decodeURIComponent(cookie.split(';')[0]!.split('=')[1]!);

    const all = JSON.parse((await getMailbox({ key })).text).data as Array<{ toEmail: string; link: string }>;
    expect(all.map((m) => m.toEmail)).toEqual(expect.arrayContaining([other.email, victim.email]));
    const filtered = JSON.parse((await getMailbox({ key, email: victim.email })).text).data as Array<{ link: string }>;
    expect(filtered.map((m) => m.link)).toEqual([link]);
  });

  it('keeps one generated key in the database across calls, and takes DEV_MAILBOX_KEY when set', async () => {
    const key = await mailboxKey();
    expect(key).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(await mailboxKey()).toBe(key);
    const [row] = await asService((tx) => tx.query<{ value: string }>(`select value from private.instance_settings where key = 'dev_mailbox_key'`));
    expect(row!.value).toBe(key);

    process.env.DEV_MAILBOX_KEY = 'k'.repeat(40);
    resetConfigForTests();
    expect(await mailboxKey()).toBe('k'.repeat(40));
    expect(await readMailbox({ key })).toBeNull();
    expect(await readMailbox({ key: 'k'.repeat(40) })).toMatchObject({ scope: 'all' });
  });

  it('is not there at all where it is off', async () => {
    process.env.DEV_MAILBOX = '0';
    resetConfigForTests();
    expect((await getMailbox({ key: await mailboxKey() })).status).toBe(404);
    expect((await unlock(await mailboxKey())).status).toBe(404);
  });
});
