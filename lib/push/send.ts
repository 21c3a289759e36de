import 'server-only';
import webpush from 'web-push';
import type { ActionType } from '@/lib/actions';
import { asService } from '@/lib/db';
import { createTranslator, isLocale, type Locale, type Translate } from '@/lib/i18n';
import { en } from '@/lib/i18n/messages/en';
import { it } from '@/lib/i18n/messages/it';
import { vapidKeys } from './vapid';

const translators: Record<Locale, Translate> = { en: createTranslator(en, 'en'), it: createTranslator(it, 'it') };

/** How long a push service keeps a push for a device that is off: at most a day, never past the proposal's expiry. */
const MAX_TTL_SECONDS = 86_400;
/** A push service that does not answer in this long fails the step, which is retried. */
const SEND_TIMEOUT_MS = 10_000;

/**
 * What the service worker (public/sw.js) receives. Only what a lock screen may show to anyone nearby:
 * what kind of action waits and for which business, never a customer's name or the message itself.
 * The hash binds Approve to exactly the proposal that was pushed, as on the Home's card.
 */
export interface PushPayload {
  v: 1;
  title: string;
  body: string;
  tag: string;
  actions: Array<{ action: 'approve' | 'ignore'; title: string }>;
  data: {
    workspaceId: string;
    decisionId: string;
    argsHash: string;
    /** Where the card is: opened when the notification itself is tapped or the session is gone. */
    url: string;
    /** The words the service worker shows after an action, in the same language. */
    words: { approved: string; ignored: string; failed: string };
  };
}

interface Proposal {
  id: string;
  workspace_id: string;
  workspace_name: string;
  action_type: ActionType;
  args_hash: string;
  expires_at: Date;
}

/** A proposal still waiting for an OK at `now`, with its workspace's name. */
async function waitingProposal(workspaceId: string, decisionId: string, now: Date): Promise<Proposal | undefined> {
  const [row] = await asService((tx) =>
    tx.query<Proposal>(
      `select d.id, d.workspace_id, w.name as workspace_name, d.action_type, d.args_hash, d.expires_at
         from public.agent_decisions d join public.workspaces w on w.id = d.workspace_id
        where d.id = $1 and d.workspace_id = $2 and d.status = 'proposed' and d.expires_at > $3`,
      [decisionId, workspaceId, now.toISOString()],
    ),
  );
  return row;
}

/**
 * The devices a new proposal goes to: every device of the workspace's owner and admins (the people who
 * may approve it). None when pushes are not set up or the proposal is no longer waiting.
 */
export async function pushTargets(workspaceId: string, decisionId: string, now: Date): Promise<string[]> {
  if (!(await waitingProposal(workspaceId, decisionId, now))) return [];
  const rows = await asService((tx) =>
    tx.query<{ id: string }>(
      `select s.id from public.push_subscriptions s
         join public.workspace_members m on m.user_id = s.user_id and m.workspace_id = $1 and m.role in ('owner', 'admin')
        order by s.created_at, s.id`,
      [workspaceId],
    ),
  );
  // Keys last: an install where nobody turned notifications on never needs them.
  return rows.length > 0 && (await vapidKeys()) ? rows.map((row) => row.id) : [];
}

export function pushPayload(proposal: Pick<Proposal, 'id' | 'workspace_id' | 'workspace_name' | 'action_type' | 'args_hash'>, locale: Locale): PushPayload {
  const t = translators[locale];
  return {
    v: 1,
    title: t('push.title', { what: t(`push.what.${proposal.action_type}`) }),
    body: t('push.body', { workspace: proposal.workspace_name }),
    tag: `decision-${proposal.id}`,
    actions: [
      { action: 'approve', title: t('push.approve') },
      { action: 'ignore', title: t('push.ignore') },
    ],
    data: {
      workspaceId: proposal.workspace_id,
      decisionId: proposal.id,
      argsHash: proposal.args_hash,
      url: `/w/${proposal.workspace_id}#home-needs`,
      words: { approved: t('push.approved'), ignored: t('push.ignored'), failed: t('push.failed') },
    },
  };
}

export type PushOutcome = 'sent' | 'gone' | 'skipped';

/**
 * Pushes one waiting proposal to one device, checked again at the moment of sending: the proposal still
 * waits, the device's person may still approve it. A device the push service no longer knows (404, 410)
 * is forgotten; any other failure throws, so the step is retried. The endpoint was checked when it was
 * stored (https, or an origin PUSH_INSECURE_ORIGINS names) and redirects are refused, so the server posts
 * nowhere else.
 */
export async function pushProposal(subscriptionId: string, workspaceId: string, decisionId: string, now: Date): Promise<PushOutcome> {
  const keys = await vapidKeys();
  const proposal = await waitingProposal(workspaceId, decisionId, now);
  if (!keys || !proposal) return 'skipped';
  const [device] = await asService((tx) =>
    tx.query<{ endpoint: string; p256dh: string; auth: string; locale: string }>(
      `select s.endpoint, s.p256dh, s.auth, s.locale from public.push_subscriptions s
         join public.workspace_members m on m.user_id = s.user_id and m.workspace_id = $2 and m.role in ('owner', 'admin')
        where s.id = $1`,
      [subscriptionId, workspaceId],
    ),
  );
  if (!device) return 'skipped';
  const payload = pushPayload(proposal, isLocale(device.locale) ? device.locale : 'en');
  const ttl = Math.max(0, Math.min(MAX_TTL_SECONDS, Math.floor((proposal.expires_at.getTime() - now.getTime()) / 1000)));
  // web-push encrypts the payload (RFC 8291) and signs the VAPID JWT (RFC 8292); the POST itself is ours,
  // since its own client speaks only https and a test's push service on loopback is plain http.
  const request = webpush.generateRequestDetails({ endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } }, JSON.stringify(payload), {
    vapidDetails: keys,
    TTL: ttl,
    urgency: 'high',
    // A later push of the same proposal replaces one still waiting at the push service (RFC 8030 §5.4).
    topic: proposal.id.replaceAll('-', ''),
  });
  const response = await fetch(request.endpoint, {
    method: request.method,
    headers: request.headers as Record<string, string>,
    body: request.body ? new Uint8Array(request.body) : null,
    redirect: 'error',
    signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
  });
  await response.body?.cancel();
  if (response.ok) return 'sent';
  if (response.status === 404 || response.status === 410) {
    await asService((tx) => tx.query(`delete from public.push_subscriptions where id = $1`, [subscriptionId]));
    return 'gone';
  }
  throw new Error(`The push service answered ${response.status} ${response.statusText}.`);
}
