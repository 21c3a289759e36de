import 'server-only';
import twilio from 'twilio';
import { isUuid } from '@/lib/api';
import { twilioCredentials } from '@/lib/channels';
import { config } from '@/lib/config';
import { landInbound, type Landed } from './land';

/** Where Twilio posts a workspace's incoming SMS and WhatsApp (the number's "A message comes in" webhook). */
export const twilioInboundPath = (workspaceId: string) => `/api/webhooks/twilio/inbound/${workspaceId}`;
export const twilioInboundUrl = (workspaceId: string) => new URL(twilioInboundPath(workspaceId), config().APP_URL).href;

/** Outcome of a webhook call: `forbidden` for anything not signed by the workspace's Twilio account. */
export type TwilioInbound = { ok: true; landed: Landed | null } | { ok: false };

/**
 * An incoming SMS or WhatsApp from Twilio. The signature (X-Twilio-Signature: HMAC-SHA1 of the URL
 * Twilio was given, APP_URL's, and the sorted form fields, under the workspace's auth token) is checked
 * with the SDK's own `validateRequest` before anything is read; an unknown workspace, one without Twilio,
 * or a wrong signature are one and the same refusal. A request that is not a message (no From or Body)
 * is accepted and ignored.
 */
export async function receiveTwilio(workspaceId: string, signature: string | null, params: Record<string, string>, now = new Date()): Promise<TwilioInbound> {
  const credentials = isUuid(workspaceId) ? await twilioCredentials(workspaceId) : null;
  if (!credentials || !signature) return { ok: false };
  if (!twilio.validateRequest(credentials.authToken, signature, twilioInboundUrl(workspaceId), params)) return { ok: false };
  const from = params.From ?? '';
  const whatsapp = from.startsWith('whatsapp:');
  const phone = whatsapp ? from.slice('whatsapp:'.length) : from;
  if (!/^\+[0-9]{6,15}$/.test(phone) || !params.MessageSid || params.Body === undefined) return { ok: true, landed: null };
  const landed = await landInbound({
    workspaceId,
    channel: whatsapp ? 'whatsapp' : 'sms',
    from: { phone },
    body: params.Body,
    externalId: `twilio:${params.MessageSid}`,
    now,
  });
  return { ok: true, landed };
}
