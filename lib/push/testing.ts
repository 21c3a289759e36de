import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, randomUUID, verify } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Tests only: a push service on loopback speaking Web Push as browsers' push services do (RFC 8030),
 * and the receiving browser's side of it. A POST to a device's endpoint must carry an aes128gcm body
 * (RFC 8188, keys per RFC 8291) and `Authorization: vapid t=<JWT>,k=<key>` (RFC 8292): the JWT's ES256
 * signature is verified against k, k must be the application server key the device subscribed with, the
 * audience must be this service's origin and the expiry within 24 hours. The body is then decrypted with
 * the device's private key, as the browser would, and recorded. 201 when accepted; 404 for an endpoint
 * it never issued, 410 for one marked gone, 400/401/403 for a bad request, as the RFCs say.
 */

export interface Device {
  id: string;
  /** What PushSubscription.toJSON() gives a page: the endpoint and the keys, base64url. */
  subscription: { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } };
}

export interface Delivered {
  deviceId: string;
  headers: { ttl: number; urgency: string | undefined; topic: string | undefined };
  /** The VAPID JWT's claims, after its signature was verified. */
  vapid: { aud: string; exp: number; sub: string; key: string };
  /** The decrypted payload, parsed as JSON (what the service worker's `event.data.json()` returns). */
  payload: any;
}

export interface Refused {
  deviceId: string | null;
  status: number;
  reason: string;
}

export interface PushService {
  url: string;
  /** A browser subscribing with this application server key (the VAPID public key, base64url). */
  newDevice(applicationServerKey: string): Device;
  /** The device unsubscribed or the browser was reset: its endpoint answers 410 from now on. */
  markGone(deviceId: string): void;
  delivered: Delivered[];
  refused: Refused[];
  close(): Promise<void>;
}

const b64 = (buffer: Buffer) => buffer.toString('base64url');

interface DeviceKeys {
  ecdh: ReturnType<typeof createECDH>;
  publicKey: Buffer;
  auth: Buffer;
  serverKey: string;
  gone: boolean;
}

export async function startPushService(): Promise<PushService> {
  const devices = new Map<string, DeviceKeys>();
  const delivered: Delivered[] = [];
  const refused: Refused[] = [];
  let origin = '';

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, res, Buffer.concat(chunks)));
  });

  function handle(req: IncomingMessage, res: ServerResponse, body: Buffer) {
    const id = /^\/push\/([\w-]+)$/.exec(req.url ?? '')?.[1] ?? null;
    const refuse = (status: number, reason: string) => {
      refused.push({ deviceId: id, status, reason });
      res.writeHead(status, { 'content-type': 'text/plain' }).end(reason);
    };
    if (req.method !== 'POST') return refuse(405, 'POST only');
    const device = id ? devices.get(id) : undefined;
    if (!device) return refuse(404, 'no such subscription');
    if (device.gone) return refuse(410, 'subscription gone');
    const ttl = Number(req.headers.ttl);
    if (!Number.isInteger(ttl) || ttl < 0) return refuse(400, 'TTL header missing or invalid');
    if (req.headers['content-encoding'] !== 'aes128gcm') return refuse(415, 'Content-Encoding must be aes128gcm');

    const vapid = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+),\s*k=([\w-]+)$/.exec(req.headers.authorization ?? '');
    if (!vapid) return refuse(401, 'Authorization: vapid t=…,k=… required');
    const [, token, key] = vapid as unknown as [string, string, string];
    const claims = verifyVapid(token, key);
    if (!claims) return refuse(401, 'VAPID signature invalid');
    if (claims.aud !== origin) return refuse(403, `VAPID audience ${claims.aud} is not ${origin}`);
    const now = Math.floor(Date.now() / 1000);
    if (typeof claims.exp !== 'number' || claims.exp <= now || claims.exp > now + 86_400) return refuse(403, 'VAPID expiry outside the next 24 hours');
    if (typeof claims.sub !== 'string' || !/^(mailto:|https:)/.test(claims.sub)) return refuse(403, 'VAPID subject must be mailto: or https:');
    if (key !== device.serverKey) return refuse(403, 'VAPID key is not the one the subscription was made with');

    let plaintext: Buffer;
    try {
      plaintext = decrypt(device, body);
    } catch (error) {
      return refuse(400, `cannot decrypt: ${(error as Error).message}`);
    }
    delivered.push({
      deviceId: id!,
      headers: { ttl, urgency: req.headers.urgency as string | undefined, topic: req.headers.topic as string | undefined },
      vapid: { aud: claims.aud, exp: claims.exp, sub: claims.sub, key },
      payload: JSON.parse(plaintext.toString('utf8')),
    });
    res.writeHead(201, { location: `${origin}/message/${randomUUID()}` }).end();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: origin,
    newDevice(applicationServerKey) {
      const id = randomUUID();
      const ecdh = createECDH('prime256v1');
      const publicKey = ecdh.generateKeys();
      const auth = randomBytes(16);
      devices.set(id, { ecdh, publicKey, auth, serverKey: applicationServerKey, gone: false });
      return { id, subscription: { endpoint: `${origin}/push/${id}`, expirationTime: null, keys: { p256dh: b64(publicKey), auth: b64(auth) } } };
    },
    markGone(deviceId) {
      devices.get(deviceId)!.gone = true;
    },
    delivered,
    refused,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** RFC 8292 §2: an ES256 JWT signed by the key in k (an uncompressed P-256 point). */
function verifyVapid(token: string, key: string): { aud: string; exp: number; sub: string } | null {
  const [header, payload, signature] = token.split('.') as [string, string, string];
  const point = Buffer.from(key, 'base64url');
  if (point.length !== 65 || point[0] !== 4) return null;
  try {
    if (JSON.parse(Buffer.from(header, 'base64url').toString()).alg !== 'ES256') return null;
    const publicKey = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: b64(point.subarray(1, 33)), y: b64(point.subarray(33)) }, format: 'jwk' });
    const ok = verify('sha256', Buffer.from(`${header}.${payload}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));
    return ok ? JSON.parse(Buffer.from(payload, 'base64url').toString()) : null;
  } catch {
    return null;
  }
}

/**
 * The browser's side of RFC 8291 over RFC 8188: header salt(16) | rs(4) | idlen(1) | keyid (the sender's
 * ephemeral public key), then records of AES-128-GCM; the last record's plaintext ends with 0x02 and
 * optional zero padding.
 */
function decrypt(device: DeviceKeys, body: Buffer): Buffer {
  if (body.length < 21) throw new Error('body shorter than the aes128gcm header');
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20]!;
  const senderKey = body.subarray(21, 21 + idlen);
  if (idlen !== 65) throw new Error('keyid is not a P-256 public key');
  const ecdhSecret = device.ecdh.computeSecret(senderKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), device.publicKey, senderKey]);
  const ikm = Buffer.from(hkdfSync('sha256', ecdhSecret, device.auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const baseNonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const records = body.subarray(21 + idlen);
  const out: Buffer[] = [];
  for (let offset = 0, seq = 0; offset < records.length; offset += rs, seq++) {
    const record = records.subarray(offset, Math.min(offset + rs, records.length));
    const nonce = Buffer.from(baseNonce);
    // The record's sequence number XORed into the nonce's last bytes (a payload this size is one record).
    nonce.writeUInt32BE((nonce.readUInt32BE(8) ^ seq) >>> 0, 8);
    const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
    decipher.setAuthTag(record.subarray(record.length - 16));
    const plain = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
    let end = plain.length - 1;
    while (end >= 0 && plain[end] === 0) end--;
    const last = offset + rs >= records.length;
    if (plain[end] !== (last ? 2 : 1)) throw new Error('record delimiter missing');
    out.push(plain.subarray(0, end));
  }
  return Buffer.concat(out);
}
