import 'server-only';
import twilio from 'twilio';
import type { SendFailure } from './email';
import type { TwilioCredentials } from './settings';

type RequestOptions<TData> = import('twilio/lib/base/RequestClient').RequestOptions<TData>;

/**
 * SMS and WhatsApp through Twilio's official SDK. Tests point it at a stand-in of Twilio's REST API
 * (TWILIO_API_BASE_URL): the SDK's own RequestClient still builds, authenticates and parses every request;
 * only the origin of the URI it would call is replaced.
 */
class RebasedRequestClient extends twilio.RequestClient {
  constructor(private readonly baseUrl: string) {
    super();
  }

  override request<TData>(opts: RequestOptions<TData>) {
    const uri = new URL(opts.uri);
    return super.request<TData>({ ...opts, uri: new URL(uri.pathname + uri.search, this.baseUrl).toString() });
  }
}

export function twilioClient(credentials: TwilioCredentials) {
  return twilio(credentials.accountSid, credentials.authToken, credentials.baseUrl ? { httpClient: new RebasedRequestClient(credentials.baseUrl) } : {});
}

/** A phone number as Twilio takes it: E.164, without the spaces people write. */
export const e164 = (phone: string) => phone.replace(/[\s().-]/g, '');

export async function sendTwilio(
  credentials: TwilioCredentials,
  message: { channel: 'sms' | 'whatsapp'; to: string; body: string; statusCallback: string },
): Promise<{ ok: true; sid: string; status: string } | ({ ok: false } & SendFailure)> {
  const whatsapp = message.channel === 'whatsapp';
  const from = whatsapp ? credentials.whatsappFrom : credentials.from;
  if (!from) return { ok: false, transient: false, reason: `No ${whatsapp ? 'WhatsApp' : 'SMS'} sender is set.` };
  try {
    const sent = await twilioClient(credentials).messages.create({
      to: whatsapp ? `whatsapp:${e164(message.to)}` : e164(message.to),
      from: whatsapp ? `whatsapp:${e164(from)}` : from,
      body: message.body,
      statusCallback: message.statusCallback,
    });
    return { ok: true, sid: sent.sid, status: sent.status };
  } catch (error) {
    return { ok: false, ...twilioFailure(error) };
  }
}

/** 429 and 5xx (and no answer at all) are worth another try; any other refusal (a wrong number, a bad sender) is not. */
export function twilioFailure(error: unknown): SendFailure {
  const e = error as { status?: number; code?: number; message?: string };
  const reason = `${e.code ? `Twilio ${e.code}: ` : ''}${e.message ?? String(error)}`.slice(0, 400);
  if (typeof e.status === 'number') return { transient: e.status === 429 || e.status >= 500, reason };
  return { transient: true, reason };
}
