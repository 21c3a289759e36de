import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import webpush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as decide } from '@/app/api/workspaces/[workspaceId]/decisions/[decisionId]/[action]/route';
import { POST as subscribeRoute } from '@/app/api/push/subscriptions/route';
import { submitAction } from '@/lib/autonomy';
import { createSalon, type Salon } from '@/lib/autonomy/test-world';
import { ACCESS_COOKIE, signAccessToken } from '@/lib/auth';
import { resetConfigForTests } from '@/lib/config';
import { asService, type SessionUser } from '@/lib/db';
import { findCandidates } from '@/lib/insights';
import { resetVapidForTests, type PushPayload } from '@/lib/push';
import { startPushService, type Device, type PushService } from '@/lib/push/testing';
import { setupTestDatabase } from '@/test/db';
import { RUNTIMES, startRuntime } from '../testing';
import { pushDecision } from './push-decision';

setupTestDatabase();

const APP = 'http://127.0.0.1:3314';
const q = <T = Record<string, any>>(sql: string, params: unknown[] = []) => asService((tx) => tx.query<T>(sql, params));

let pushService: PushService;
let vapidPublicKey: string;
const saved = { ...process.env };

beforeAll(async () => {
  pushService = await startPushService();
  const pair = webpush.generateVAPIDKeys();
  vapidPublicKey = pair.publicKey;
  Object.assign(process.env, {
    APP_URL: APP,
    VAPID_PUBLIC_KEY: pair.publicKey,
    VAPID_PRIVATE_KEY: pair.privateKey,
    VAPID_SUBJECT: 'mailto:owner@studio-aurora.example',
    PUSH_INSECURE_ORIGINS: pushService.url,
  });
  resetConfigForTests();
  resetVapidForTests();
});

afterAll(async () => {
  process.env = saved;
  resetConfigForTests();
  resetVapidForTests();
  await pushService.close();
});

const cookieOf = async (user: SessionUser) => `${ACCESS_COOKIE}=${await signAccessToken(user)}`;

/** A phone turning notifications on: the browser subscribes at the push service, the page posts the subscription. */
async function phoneOf(user: SessionUser, language: string): Promise<Device> {
  const device = pushService.newDevice(vapidPublicKey);
  const response = await subscribeRoute(
    new Request(`${APP}/api/push/subscriptions`, {
      method: 'POST',
      headers: { cookie: await cookieOf(user), 'content-type': 'application/json', 'accept-language': language },
      body: JSON.stringify(device.subscription),
    }),
  );
  expect(response.status).toBe(201);
  return device;
}

/**
 * public/sw.js, run as the browser runs it: its push and notificationclick handlers, with the
 * notifications it shows and the windows it opens recorded, and its fetch going to the app's route
 * handlers with this device's cookies (none once the session is gone).
 */
function serviceWorker(cookie: string | null) {
  const handlers: Record<string, (event: unknown) => void> = {};
  const shown: Array<{ title: string; options: Record<string, any> }> = [];
  const opened: string[] = [];
  const calls: Array<{ path: string; status: number }> = [];
  const self = {
    location: { origin: APP },
    addEventListener: (type: string, handler: (event: unknown) => void) => (handlers[type] = handler),
    skipWaiting: () => undefined,
    registration: { showNotification: async (title: string, options: Record<string, any>) => void shown.push({ title, options }) },
    clients: { claim: async () => undefined, matchAll: async () => [], openWindow: async (url: string) => void opened.push(url) },
  };
  const fetch = async (path: string, init: RequestInit) => {
    const match = /^\/api\/workspaces\/([\w-]+)\/decisions\/([\w-]+)\/(approve|reject)$/.exec(path);
    if (!match) throw new Error(`the service worker called ${path}`);
    const headers = new Headers(init.headers);
    if (cookie && init.credentials === 'same-origin') headers.set('cookie', cookie);
    const response = await decide(new Request(new URL(path, APP), { ...init, headers }), {
      params: Promise.resolve({ workspaceId: match[1]!, decisionId: match[2]!, action: match[3]! }),
    });
    calls.push({ path, status: response.status });
    return response;
  };
  runInNewContext(readFileSync('public/sw.js', 'utf8'), { self, fetch, URL, JSON, Promise });
  async function dispatch(type: string, event: Record<string, unknown>) {
    const pending: Promise<unknown>[] = [];
    handlers[type]!({ ...event, waitUntil: (promise: Promise<unknown>) => pending.push(promise) });
    await Promise.all(pending);
  }
  return {
    shown,
    opened,
    calls,
    /** A push arrives: the worker shows it. */
    push: (payload: unknown) => dispatch('push', { data: { json: () => payload } }),
    /** The person taps an action of the notification the worker showed (or the notification itself: ''). */
    tap: (action: string, notification: { options: Record<string, any> }) =>
      dispatch('notificationclick', { action, notification: { data: notification.options.data, tag: notification.options.tag, close: () => undefined } }),
  };
}

describe.each(RUNTIMES)('%s', (runtimeName) => {
  let salon: Salon;
  const ws = () => salon.workspace.id;
  // The demo data's day is today in Rome, so the proposals are due now and the app's clock agrees.
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Rome' }).format(new Date());

  beforeAll(async () => {
    salon = await createSalon(today, `Studio ${runtimeName}`);
  });

  async function propose() {
    const now = new Date();
    const [{ remindersDue }] = await asService((tx) => Promise.all([findCandidates(tx, ws(), 'booking', now)]));
    for (const due of remindersDue) {
      const outcome = await asService((tx) => submitAction(tx, { workspaceId: ws(), type: 'booking_reminder', input: { appointmentId: due.appointmentId }, trigger: 'test', now }));
      if (outcome.status === 'proposed') {
        const [decision] = await q(`select * from public.agent_decisions where id = $1`, [outcome.decisionId]);
        return decision!;
      }
    }
    throw new Error('no reminder left to propose');
  }

  it('pushes a new proposal to the owner and admins with Approve and Ignore; Approve from it runs it once, a second Approve or a wrong hash fails', async () => {
    const ownerPhone = await phoneOf(salon.owner, 'it-IT,it;q=0.9');
    const adminPhone = await phoneOf(salon.admin, 'en-GB,en;q=0.9');
    const memberPhone = await phoneOf(salon.member, 'en');
    const runtime = await startRuntime(runtimeName, { functions: [pushDecision] });
    try {
      const decision = await propose();
      const before = pushService.delivered.length;
      await runtime.runUntilIdle();
      const arrived = pushService.delivered.slice(before);
      // The owner's and the admin's phones; a member cannot approve, so theirs stays quiet.
      expect(arrived.map((d) => d.deviceId).sort()).toEqual([ownerPhone.id, adminPhone.id].sort());
      expect(arrived.some((d) => d.deviceId === memberPhone.id)).toBe(false);
      const toOwner = arrived.find((d) => d.deviceId === ownerPhone.id)!;
      const payload = toOwner.payload as PushPayload;
      expect(payload).toMatchObject({
        title: 'Un promemoria a un cliente per il suo appuntamento — Approvi?',
        body: `Studio ${runtimeName} · Serve il tuo OK`,
        actions: [
          { action: 'approve', title: 'Approva' },
          { action: 'ignore', title: 'Ignora' },
        ],
        data: { workspaceId: ws(), decisionId: decision.id, argsHash: decision.args_hash },
      });
      expect((arrived.find((d) => d.deviceId === adminPhone.id)!.payload as PushPayload).actions.map((a) => a.title)).toEqual(['Approve', 'Ignore']);
      // Signed for this push service, for less than a day, kept by it no longer than the proposal waits.
      expect(toOwner.vapid).toMatchObject({ aud: pushService.url, sub: 'mailto:owner@studio-aurora.example', key: vapidPublicKey });
      expect(toOwner.headers.urgency).toBe('high');
      expect(toOwner.headers.ttl).toBeGreaterThan(0);
      expect(toOwner.headers.ttl).toBeLessThanOrEqual((decision.expires_at.getTime() - decision.created_at.getTime()) / 1000);
      // Nothing a passer-by should read on a lock screen: not the customer, their number, nor the message.
      const onScreen = JSON.stringify(arrived.map((d) => d.payload));
      for (const secret of [decision.details.customerName, decision.args.to, decision.args.message]) {
        expect(typeof secret === 'string' && secret.length > 0).toBe(true);
        expect(onScreen).not.toContain(secret);
      }

      // The owner's phone shows it with both actions, and Approve carries the proposal out.
      const ownerWorker = serviceWorker(await cookieOf(salon.owner));
      await ownerWorker.push(payload);
      expect(ownerWorker.shown).toEqual([
        { title: payload.title, options: expect.objectContaining({ body: payload.body, tag: `decision-${decision.id}`, actions: payload.actions, data: payload.data }) },
      ]);
      await ownerWorker.tap('approve', ownerWorker.shown[0]!);
      expect(ownerWorker.calls).toEqual([{ path: `/api/workspaces/${ws()}/decisions/${decision.id}/approve`, status: 200 }]);
      expect(ownerWorker.shown[1]!.title).toBe('Approvata.');
      const done = async () => (await q(`select status, decided_by from public.agent_decisions where id = $1`, [decision.id]))[0];
      const messages = () => q(`select id from public.outbox_messages where decision_id = $1`, [decision.id]);
      expect(await done()).toEqual({ status: 'executed', decided_by: salon.owner.id });
      expect(await messages()).toHaveLength(1);

      // The admin answers the same push on their phone a moment later: refused, nothing runs twice.
      const adminWorker = serviceWorker(await cookieOf(salon.admin));
      await adminWorker.push(arrived.find((d) => d.deviceId === adminPhone.id)!.payload);
      await adminWorker.tap('approve', adminWorker.shown[0]!);
      expect(adminWorker.calls[0]!.status).toBe(409);
      expect(adminWorker.shown[1]).toMatchObject({ title: 'Not done', options: { body: expect.stringMatching(/approved|carried out|already/i) } });
      // The owner taps Approve again (a second notification, a double tap): the same.
      await ownerWorker.tap('approve', ownerWorker.shown[0]!);
      expect(ownerWorker.calls[1]!.status).toBe(409);
      expect(await done()).toEqual({ status: 'executed', decided_by: salon.owner.id });
      expect(await messages()).toHaveLength(1);

      // A tampered action: the hash of something else is refused and the proposal keeps waiting.
      const next = await propose();
      await runtime.runUntilIdle();
      const nextPush = pushService.delivered.find((d) => d.deviceId === ownerPhone.id && d.payload.data.decisionId === next.id)!.payload as PushPayload;
      const tampered = serviceWorker(await cookieOf(salon.owner));
      await tampered.push({ ...nextPush, data: { ...nextPush.data, argsHash: 'f'.repeat(64) } });
      await tampered.tap('approve', tampered.shown[0]!);
      expect(tampered.calls[0]!.status).toBe(409);
      expect((await q(`select status from public.agent_decisions where id = $1`, [next.id]))[0]!.status).toBe('proposed');
      expect(await messages()).toHaveLength(1);

      // Signed out on this phone: Approve opens the app at the card instead, and nothing is decided.
      const signedOut = serviceWorker(null);
      await signedOut.push(nextPush);
      await signedOut.tap('approve', signedOut.shown[0]!);
      expect(signedOut.calls[0]!.status).toBe(401);
      expect(signedOut.opened).toEqual([`${APP}/w/${ws()}#home-needs`]);
      // Ignore from the notification closes it for good; tapping the notification itself only opens the card.
      const ignoring = serviceWorker(await cookieOf(salon.admin));
      await ignoring.push(nextPush);
      await ignoring.tap('', ignoring.shown[0]!);
      expect(ignoring.calls).toEqual([]);
      expect(ignoring.opened).toEqual([`${APP}/w/${ws()}#home-needs`]);
      await ignoring.tap('ignore', ignoring.shown[0]!);
      expect(ignoring.calls).toEqual([{ path: `/api/workspaces/${ws()}/decisions/${next.id}/reject`, status: 200 }]);
      expect((await q(`select status from public.agent_decisions where id = $1`, [next.id]))[0]!.status).toBe('rejected');

      const runs = await runtime.runs('push-decision');
      expect(runs.map((r) => [r.status, r.output])).toEqual([
        ['completed', { devices: 2, sent: 2, gone: 0 }],
        ['completed', { devices: 2, sent: 2, gone: 0 }],
      ]);
    } finally {
      await runtime.stop();
      await q(`delete from public.push_subscriptions where user_id = any($1::uuid[])`, [[salon.owner.id, salon.admin.id, salon.member.id]]);
    }
  });

  it('forgets a device the push service says is gone, and pushes nothing for a proposal decided before its push', async () => {
    const phone = await phoneOf(salon.owner, 'en');
    const tablet = await phoneOf(salon.owner, 'en');
    pushService.markGone(tablet.id);
    const runtime = await startRuntime(runtimeName, { functions: [pushDecision] });
    try {
      await propose();
      await runtime.runUntilIdle();
      const devices = await q(`select endpoint from public.push_subscriptions where user_id = $1`, [salon.owner.id]);
      expect(devices.map((d) => d.endpoint)).toEqual([phone.subscription.endpoint]);
      expect(pushService.refused.filter((r) => r.deviceId === tablet.id).map((r) => r.status)).toEqual([410]);
      expect((await runtime.runs('push-decision')).at(-1)!.output).toEqual({ devices: 2, sent: 1, gone: 1 });

      // Approved on the Home before the background work got to it: no push goes out.
      const decided = await propose();
      await q(`update public.agent_decisions set status = 'rejected' where id = $1`, [decided.id]);
      const before = pushService.delivered.length;
      await runtime.runUntilIdle();
      expect(pushService.delivered.length).toBe(before);
    } finally {
      await runtime.stop();
    }
  });
});
