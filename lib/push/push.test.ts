import { randomBytes } from 'node:crypto';
import webpush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetConfigForTests } from '@/lib/config';
import { asService, withUser } from '@/lib/db';
import { setupTestDatabase } from '@/test/db';
import { createUser } from '@/test/fixtures';
import { pushSubscriptionSchema, resetVapidForTests, subscribe, subscriptionStatus, unsubscribe, vapidKeys } from './index';
import { startPushService, type PushService } from './testing';

setupTestDatabase();

const saved = { ...process.env };
let pushService: PushService;

beforeAll(async () => {
  pushService = await startPushService();
  // The embedded default with no VAPID keys set, and a secrets key of the test's own.
  for (const name of ['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY', 'VAPID_SUBJECT', 'DATABASE_URL']) delete process.env[name];
  Object.assign(process.env, { SECRETS_KEYS: `test:${randomBytes(32).toString('base64')}`, PUSH_INSECURE_ORIGINS: pushService.url, APP_URL: 'http://localhost:3000' });
  resetConfigForTests();
  resetVapidForTests();
});

afterAll(async () => {
  process.env = saved;
  resetConfigForTests();
  resetVapidForTests();
  await pushService.close();
});

const device = () => pushService.newDevice(`B${'A'.repeat(86)}`).subscription;

describe('VAPID keys on the embedded default', () => {
  it('generates a pair once, keeps it, and keeps the private key sealed in the database', async () => {
    const keys = (await vapidKeys())!;
    expect(keys.publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
    expect(keys.subject).toBe('mailto:push@localhost');
    resetVapidForTests();
    expect(await vapidKeys()).toEqual(keys);
    const [row] = await asService((tx) => tx.query<{ value: string }>(`select value from private.instance_settings where key = 'vapid_keys'`));
    expect(row!.value).toContain(keys.publicKey);
    expect(row!.value).not.toContain(keys.privateKey);
    expect(JSON.parse(row!.value).privateKey).toMatch(/^v1\.test\./);

    // Without the secrets key that sealed it, the database alone does not give the private key back.
    process.env.SECRETS_KEYS = `other:${randomBytes(32).toString('base64')}`;
    resetConfigForTests();
    resetVapidForTests();
    await expect(vapidKeys()).rejects.toThrow(/test/);
  });
});

describe('push subscriptions', () => {
  it('are each person’s own: seen, checked and removed by that person only', async () => {
    const [ana, ben] = await Promise.all([createUser('ana'), createUser('ben')]);
    const phone = pushSubscriptionSchema.parse(device());
    await subscribe(ana, phone, 'it');
    expect(await subscriptionStatus(ana, phone.endpoint)).toEqual({ subscribed: true });
    expect(await subscriptionStatus(ben, phone.endpoint)).toEqual({ subscribed: false });
    // Ben cannot read, change or remove Ana's device, by the API or by SQL under RLS.
    expect(await unsubscribe(ben, phone.endpoint)).toEqual({ subscribed: false, removed: false });
    const seen = await withUser(ben, (tx) => tx.query(`select 1 from public.push_subscriptions where endpoint = $1`, [phone.endpoint]));
    expect(seen).toEqual([]);
    const changed = await withUser(ben, (tx) => tx.query(`update public.push_subscriptions set locale = 'en' where endpoint = $1 returning 1`, [phone.endpoint]));
    expect(changed).toEqual([]);
    const [row] = await asService((tx) => tx.query<{ user_id: string; locale: string }>(`select user_id, locale from public.push_subscriptions where endpoint = $1`, [phone.endpoint]));
    expect(row).toEqual({ user_id: ana.id, locale: 'it' });

    // Ana signs out and Ben turns notifications on on the same phone: it is Ben's now, and only Ben's.
    await subscribe(ben, phone, 'en');
    expect(await subscriptionStatus(ana, phone.endpoint)).toEqual({ subscribed: false });
    expect(await subscriptionStatus(ben, phone.endpoint)).toEqual({ subscribed: true });
    expect(await unsubscribe(ben, phone.endpoint)).toEqual({ subscribed: false, removed: true });
    expect(await subscriptionStatus(ben, phone.endpoint)).toEqual({ subscribed: false });
  });

  it('takes only a push service the server may post to, and keys of the right size', () => {
    const phone = device();
    expect(pushSubscriptionSchema.safeParse(phone).success).toBe(true);
    // Padded base64url, as some browsers write it, is the same key.
    expect(pushSubscriptionSchema.parse({ ...phone, keys: { p256dh: `${phone.keys.p256dh}=`, auth: `${phone.keys.auth}==` } }).keys).toEqual(phone.keys);
    for (const endpoint of ['http://10.0.0.1/push/x', 'http://127.0.0.1:1/push/x', 'file:///etc/passwd', 'not a url']) {
      expect(pushSubscriptionSchema.safeParse({ ...phone, endpoint }).success, endpoint).toBe(false);
    }
    expect(pushSubscriptionSchema.safeParse({ ...phone, endpoint: 'https://fcm.googleapis.com/fcm/send/abc' }).success).toBe(true);
    expect(pushSubscriptionSchema.safeParse({ ...phone, keys: { ...phone.keys, auth: 'short' } }).success).toBe(false);
  });
});

describe('the local push service', () => {
  it('refuses what a real one refuses: another VAPID key than the subscription’s, a body it cannot decrypt, a gone endpoint', async () => {
    const ours = webpush.generateVAPIDKeys();
    const theirs = webpush.generateVAPIDKeys();
    const phone = pushService.newDevice(ours.publicKey);
    const post = async (vapid: { publicKey: string; privateKey: string }, keys = phone.subscription.keys) => {
      const request = webpush.generateRequestDetails({ endpoint: phone.subscription.endpoint, keys }, '{"v":1}', {
        vapidDetails: { subject: 'mailto:a@example.test', ...vapid },
        TTL: 60,
      });
      const response = await fetch(request.endpoint, { method: 'POST', headers: request.headers as Record<string, string>, body: new Uint8Array(request.body!) });
      return response.status;
    };
    expect(await post(ours)).toBe(201);
    expect(pushService.delivered.at(-1)!.payload).toEqual({ v: 1 });
    expect(await post(theirs)).toBe(403);
    // Encrypted for another device: the receiving side cannot open it.
    expect(await post(ours, pushService.newDevice(ours.publicKey).subscription.keys)).toBe(400);
    pushService.markGone(phone.id);
    expect(await post(ours)).toBe(410);
  });
});
