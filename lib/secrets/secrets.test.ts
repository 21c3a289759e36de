import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resetConfigForTests } from '@/lib/config';
import { setupTestDatabase } from '@/test/db';
import { installKeyRing, newKeyEntry, openSecret, parseKeyRing, resealColumn, sealSecret, sealedWith } from '.';

const db = setupTestDatabase();
const oldRing = parseKeyRing(newKeyEntry('old'));
const [oldEntry] = [...oldRing.keys].map(([id, key]) => `${id}:${key.toString('base64')}`);

describe('sealed secrets', () => {
  it('open only with their key and in their own context, and hide the plaintext', () => {
    const sealed = sealSecret('smtp-password-123', oldRing, 'smtp:ws1');
    expect(sealed).not.toContain('smtp-password');
    expect(Buffer.from(sealed.split('.')[4]!, 'base64url').toString('latin1')).not.toContain('smtp-password');
    expect(openSecret(sealed, oldRing, 'smtp:ws1')).toBe('smtp-password-123');
    expect(() => openSecret(sealed, oldRing, 'smtp:ws2')).toThrow();
    expect(() => openSecret(sealed, parseKeyRing(newKeyEntry('old')), 'smtp:ws1')).toThrow();
    const parts = sealed.split('.');
    const ciphertext = Buffer.from(parts[4]!, 'base64url');
    ciphertext[0] = ciphertext[0]! ^ 0x01;
    parts[4] = ciphertext.toString('base64url');
    expect(() => openSecret(parts.join('.'), oldRing, 'smtp:ws1')).toThrow();
    expect(sealSecret('same', oldRing, 'c')).not.toBe(sealSecret('same', oldRing, 'c'));
  });

  it('refuse a malformed SECRETS_KEYS with the reason', () => {
    expect(() => parseKeyRing('k1:short')).toThrow(/32 bytes/);
    expect(() => parseKeyRing(`${oldEntry},${oldEntry}`)).toThrow(/twice/);
    expect(() => parseKeyRing(' , ')).toThrow(/no key/);
  });

  it('rotate without downtime: the old key still opens, re-sealing moves every row to the new key once', async () => {
    const newRing = parseKeyRing(`${newKeyEntry('new')},${oldEntry}`);
    await db().transaction(async (tx) => {
      await tx.query(`create table sealed_things (id text primary key, secret text)`);
      for (const id of ['a', 'b']) await tx.query(`insert into sealed_things values ($1, $2)`, [id, sealSecret(`token-${id}`, oldRing, `thing:${id}`)]);
      await tx.query(`insert into sealed_things values ('c', null)`);
    });
    const column = { table: 'sealed_things', key: 'id', column: 'secret', context: (id: string) => `thing:${id}` };
    const rows = async () => db().query<{ id: string; secret: string }>(`select id, secret from sealed_things where secret is not null order by id`);

    for (const row of await rows()) expect(openSecret(row.secret, newRing, `thing:${row.id}`)).toBe(`token-${row.id}`);
    expect(await db().transaction((tx) => resealColumn(tx, column, newRing))).toBe(2);
    expect(await db().transaction((tx) => resealColumn(tx, column, newRing))).toBe(0);

    const onlyNew = parseKeyRing(`new:${newRing.current.key.toString('base64')}`);
    for (const row of await rows()) {
      expect(sealedWith(row.secret)).toBe('new');
      expect(openSecret(row.secret, onlyNew, `thing:${row.id}`)).toBe(`token-${row.id}`);
      expect(() => openSecret(row.secret, oldRing, `thing:${row.id}`)).toThrow();
    }
  });
});

describe('the install key ring', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
    resetConfigForTests();
  });

  it('on the embedded default without SECRETS_KEYS, is generated once beside the database, readable only by its owner', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mv-secrets-'));
    delete process.env.SECRETS_KEYS;
    delete process.env.DATABASE_URL;
    process.env.PGLITE_DIR = path.join(dir, 'pglite');
    resetConfigForTests();
    const first = installKeyRing()!;
    const second = installKeyRing()!;
    expect(second.current.key.equals(first.current.key)).toBe(true);
    const file = path.join(dir, 'secrets.key');
    expect(readFileSync(file, 'utf8')).toContain(first.current.key.toString('base64'));
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('on a Postgres install without SECRETS_KEYS, is absent', () => {
    delete process.env.SECRETS_KEYS;
    process.env.DATABASE_URL = 'postgres://nobody@127.0.0.1:1/none';
    resetConfigForTests();
    expect(installKeyRing()).toBeNull();
  });
});
