import 'server-only';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { config } from '@/lib/config';
import type { Tx } from '@/lib/db';

/**
 * Secrets kept in the database (SMTP passwords, Twilio auth tokens, OAuth tokens, the VAPID private key) are
 * sealed with AES-256-GCM under a key the database never holds, so a dump or a stolen backup reads as noise.
 *
 * A sealed value is `v1.<key id>.<iv>.<tag>.<ciphertext>` (base64url parts). It is bound to its place by
 * the `context` (e.g. `smtp_password:<workspace id>`), given as GCM's additional data: a value copied onto
 * another row does not open there.
 *
 * Keys come from SECRETS_KEYS, `id:base64key,id:base64key`: the first seals, every one opens. Rotation
 * without downtime: put a new key first and keep the old one after it; values sealed under the old key
 * still open, `resealColumn` re-seals them under the new one, and then the old key can go.
 */
export interface KeyRing {
  current: { id: string; key: Buffer };
  keys: ReadonlyMap<string, Buffer>;
}

export class SecretsUnavailableError extends Error {
  constructor() {
    super('No secrets key is set: set SECRETS_KEYS (see .env.example) to store passwords and tokens.');
  }
}

/** Parses a SECRETS_KEYS value; throws naming what is wrong. */
export function parseKeyRing(setting: string): KeyRing {
  const entries = setting
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const colon = entry.indexOf(':');
      const id = entry.slice(0, colon);
      const key = Buffer.from(entry.slice(colon + 1), 'base64');
      if (colon < 1 || !/^[A-Za-z0-9_-]+$/.test(id)) throw new Error(`SECRETS_KEYS: "${id || entry}" is not a key id (letters, digits, - and _).`);
      if (key.length !== 32) throw new Error(`SECRETS_KEYS: the key "${id}" is not 32 bytes of base64.`);
      return [id, key] as const;
    });
  const [first] = entries;
  if (!first) throw new Error('SECRETS_KEYS holds no key.');
  const keys = new Map(entries);
  if (keys.size !== entries.length) throw new Error('SECRETS_KEYS names a key id twice.');
  return { current: { id: first[0], key: first[1] }, keys };
}

/** A new key ring entry for SECRETS_KEYS (`id:base64key`). */
export function newKeyEntry(id: string): string {
  return `${id}:${randomBytes(32).toString('base64')}`;
}

/**
 * This install's key ring: SECRETS_KEYS; on the embedded default without it, a key generated once and kept
 * in a file beside the database directory (never inside the database). Elsewhere, without SECRETS_KEYS,
 * there is none and storing a secret fails with `SecretsUnavailableError`.
 */
export function installKeyRing(): KeyRing | null {
  const cfg = config();
  if (cfg.SECRETS_KEYS) return parseKeyRing(cfg.SECRETS_KEYS);
  if (!cfg.embedded) return null;
  const file = path.join(path.dirname(path.resolve(cfg.PGLITE_DIR)), 'secrets.key');
  try {
    return parseKeyRing(readFileSync(file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(path.dirname(file), { recursive: true });
  try {
    // `wx`: when two processes start at once, the second reads the first one's key instead of replacing it.
    writeFileSync(file, newKeyEntry('local'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  chmodSync(file, 0o600);
  return parseKeyRing(readFileSync(file, 'utf8'));
}

/** The install's key ring, or `SecretsUnavailableError` when it has none. */
export function requireKeyRing(): KeyRing {
  const ring = installKeyRing();
  if (!ring) throw new SecretsUnavailableError();
  return ring;
}

const b64 = (buffer: Buffer) => buffer.toString('base64url');

export function sealSecret(plaintext: string, ring: KeyRing, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', ring.current.key, iv);
  cipher.setAAD(Buffer.from(context));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', ring.current.id, b64(iv), b64(cipher.getAuthTag()), b64(ciphertext)].join('.');
}

/** Opens a sealed value; throws when its key is not in the ring, or it was altered or moved to another context. */
export function openSecret(sealed: string, ring: KeyRing, context: string): string {
  const [version, keyId, iv, tag, ciphertext] = sealed.split('.');
  if (version !== 'v1' || !keyId || iv === undefined || tag === undefined || ciphertext === undefined) throw new Error('Not a sealed secret.');
  const key = ring.keys.get(keyId);
  if (!key) throw new Error(`The secret was sealed with the key "${keyId}", which SECRETS_KEYS no longer holds.`);
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(context));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
}

/** Which key sealed a value: rotation re-seals those not sealed with the current one. */
export function sealedWith(sealed: string): string | undefined {
  return sealed.split('.')[1];
}

export interface SealedColumn {
  table: string;
  /** The column that identifies a row (its values are text-comparable). */
  key: string;
  column: string;
  /** The context a row's value was sealed with, from that row's key. */
  context: (rowKey: string) => string;
}

/**
 * Re-seals under the ring's current key every value of one column sealed with another key, in the caller's
 * transaction (trusted code: table and column names come from code, never from input). Returns how many
 * changed; running it again changes none.
 */
export async function resealColumn(tx: Tx, sealed: SealedColumn, ring: KeyRing): Promise<number> {
  const rows = await tx.query<{ key: string; value: string }>(
    `select ${sealed.key}::text as key, ${sealed.column} as value from ${sealed.table}
      where ${sealed.column} is not null and split_part(${sealed.column}, '.', 2) <> $1`,
    [ring.current.id],
  );
  for (const row of rows) {
    const context = sealed.context(row.key);
    await tx.query(`update ${sealed.table} set ${sealed.column} = $1 where ${sealed.key}::text = $2`, [
      sealSecret(openSecret(row.value, ring, context), ring, context),
      row.key,
    ]);
  }
  return rows.length;
}
