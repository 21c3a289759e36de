import { ApiError, notFound, ok, route } from '@/lib/api';
import { EMAIL_MAX_BYTES, receiveEmail } from '@/lib/inbound';

type Params = { secret: string };

const tooLarge = () => new ApiError('payload_too_large', 'api.inbound.tooLarge', { maximum: EMAIL_MAX_BYTES });

/**
 * The raw RFC 822 message, however the provider posts it: as the body itself (message/rfc822, text/plain,
 * application/octet-stream), as the `email` field of a form (SendGrid Inbound Parse with "POST the raw,
 * full MIME message"), as `body-mime` (Mailgun routes forwarding to a URL ending in "mime"), or as
 * `RawEmail` in JSON (Postmark with "include raw email content").
 */
async function rawMessage(req: Request): Promise<Buffer | null> {
  const type = (req.headers.get('content-type') ?? '').toLowerCase();
  if (type.startsWith('multipart/form-data') || type.startsWith('application/x-www-form-urlencoded')) {
    const form = await req.formData().catch(() => null);
    const field = form?.get('email') ?? form?.get('body-mime');
    if (field === null || field === undefined) return null;
    return typeof field === 'string' ? Buffer.from(field, 'utf8') : Buffer.from(await field.arrayBuffer());
  }
  if (type.startsWith('application/json')) {
    const json = (await req.json().catch(() => null)) as { RawEmail?: unknown } | null;
    return typeof json?.RawEmail === 'string' ? Buffer.from(json.RawEmail, 'utf8') : null;
  }
  return Buffer.from(await req.arrayBuffer());
}

// The workspace's secret inbound URL: an unknown secret is 404, like any address that does not exist.
export const POST = route<Params>(async ({ req, params }) => {
  if (Number(req.headers.get('content-length') ?? 0) > EMAIL_MAX_BYTES) throw tooLarge();
  const raw = await rawMessage(req);
  if (raw && raw.length > EMAIL_MAX_BYTES) throw tooLarge();
  // An empty message authenticates the secret and lands nothing (it has no sender).
  const outcome = await receiveEmail(params.secret, raw ?? Buffer.alloc(0));
  if (!outcome.workspace) throw notFound('inboundAddress');
  if (!raw || raw.length === 0) throw new ApiError('validation_failed', 'api.inbound.noMessage');
  return ok({ received: outcome.landed !== null, duplicate: outcome.landed?.duplicate ?? false });
}, 'programs');
