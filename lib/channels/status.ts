import 'server-only';
import twilio from 'twilio';
import { config } from '@/lib/config';
import { asService } from '@/lib/db';
import { twilioCredentials } from './settings';

/** Where Twilio posts a message's status changes (the SDK's `statusCallback`), as Twilio signs it. */
export const TWILIO_STATUS_PATH = '/api/webhooks/twilio/status';
export const twilioStatusUrl = () => new URL(TWILIO_STATUS_PATH, config().APP_URL).toString();

/** Twilio's final statuses, as the outbox names them; the others (queued, sending, sent) change nothing. */
const FINAL: Record<string, 'delivered' | 'undeliverable' | 'failed'> = { delivered: 'delivered', read: 'delivered', undelivered: 'undeliverable', failed: 'failed' };

/**
 * A status callback from Twilio. It is taken only when it names a message this install handed to Twilio
 * and carries X-Twilio-Signature computed with that workspace's auth token over the exact public URL
 * (APP_URL, not the Host header a proxy may rewrite) and the posted parameters; anything else is refused
 * (`forbidden`) and changes nothing. A sent message moves to delivered, undeliverable or failed.
 */
export async function twilioStatusCallback(
  request: { pathAndQuery: string; signature: string | null; params: Record<string, string> },
  now = new Date(),
): Promise<'accepted' | 'forbidden'> {
  const sid = request.params.MessageSid ?? request.params.SmsSid;
  if (!request.signature || !sid) return 'forbidden';
  const [message] = await asService((tx) =>
    tx.query<{ id: string; workspace_id: string }>(`select id, workspace_id from public.outbox_messages where provider = 'twilio' and provider_message_id = $1`, [sid]),
  );
  if (!message) return 'forbidden';
  const credentials = await twilioCredentials(message.workspace_id);
  const url = new URL(request.pathAndQuery, config().APP_URL).toString();
  if (!credentials || !twilio.validateRequest(credentials.authToken, request.signature, url, request.params)) return 'forbidden';
  if (request.params.AccountSid !== credentials.accountSid) return 'forbidden';

  const status = FINAL[request.params.MessageStatus ?? ''];
  if (!status) return 'accepted';
  const code = request.params.ErrorCode;
  const reason = status === 'delivered' ? null : `Twilio reported the message ${request.params.MessageStatus}${code ? ` (error ${code})` : ''}.`;
  await asService((tx) =>
    tx.query(
      `update public.outbox_messages
          set status = $2, error = $3,
              delivered_at = case when $2 = 'delivered' then $4::timestamptz end,
              failed_at = case when $2 <> 'delivered' then $4::timestamptz end
        where id = $1 and status = 'sent'`,
      [message.id, status, reason, now.toISOString()],
    ),
  );
  return 'accepted';
}
