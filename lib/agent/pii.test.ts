import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { setupTestDatabase } from '@/test/db';
import { defineTool, runAgent } from '@/lib/agent';
import { createTestWorkspace, startFakeModelServer, testPolicy, useFakeModelEnv, type FakeModelServer } from '@/lib/agent/testing';
import { codiceFiscaleValid, ibanValid, luhnValid, PiiVault } from './pii';

process.env.LOG_LEVEL = 'silent';
const db = setupTestDatabase();

const CUSTOMERS = [
  { name: 'Mario Rossi', email: 'mario.rossi@example.it', phone: '+39 333 123 4567', iban: 'IT60 X054 2811 1010 0000 0123 456', cf: 'RSSMRA80A01H501U' },
  { name: 'Giulia Bianchi', email: 'giulia.b@posta.example.com', phone: '347-765-4321', card: '4111 1111 1111 1111' },
  { name: 'Luca Verdi', email: 'LUCA.VERDI@Example.org', phone: '06 1234 5678', card: '5555-5555-5555-4444' },
];
const SECRETS = CUSTOMERS.flatMap((c) => Object.values(c));

describe('the PII boundary in a run', () => {
  let fake: FakeModelServer;
  let restoreEnv: () => void;

  beforeAll(async () => {
    fake = await startFakeModelServer();
    restoreEnv = useFakeModelEnv({ ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: fake.url });
  });
  afterAll(async () => {
    restoreEnv();
    await fake.close();
  });

  it('sends no email, phone, IBAN, card, codice fiscale or customer name to the model; the write tool gets the real values', async () => {
    const { workspaceId } = await createTestWorkspace(db());
    const listCustomers = defineTool({
      name: 'list_customers',
      description: 'Lapsed customers.',
      input: z.object({}),
      kind: 'read',
      handler: async () => ({ customers: CUSTOMERS, note: `Mario Rossi asked to be called on ${CUSTOMERS[0]!.phone}` }),
    });
    const received: unknown[] = [];
    const sendMessage = defineTool({
      name: 'send_message',
      description: 'Sends a win-back message.',
      input: z.object({ to: z.string().email(), name: z.string(), text: z.string() }),
      kind: 'write',
      handler: async (input) => {
        received.push(input);
        return `sent to ${input.to}`;
      },
    });

    // Turn 2 writes to whatever aliases the model was shown for Mario Rossi.
    let aliases: { email: string; name: string } | undefined;
    fake.script({ toolCalls: [{ name: 'list_customers', input: {} }] });
    fake.respond = (request) => {
      if (!aliases) {
        const result = JSON.parse(request.body.messages.at(-1).content[0].content);
        aliases = { email: result.customers[0].email, name: result.customers[0].name };
        return { toolCalls: [{ name: 'send_message', input: { to: aliases.email, name: aliases.name, text: `Ciao ${aliases.name}, ci manchi!` } }] };
      }
      return { toolCalls: [{ name: 'finish', input: { summary: `Wrote to ${aliases.name}` } }] };
    };

    const result = await runAgent({
      system: 'You win back lapsed customers.',
      context: 'Speaking: Giulia Bianchi (giulia.b@posta.example.com).',
      memory: 'Luca Verdi prefers calls at 06 1234 5678.',
      firstMessage: `Write to Mario Rossi (mario.rossi@example.it, card 4111 1111 1111 1111, CF RSSMRA80A01H501U).`,
      tools: [listCustomers, sendMessage],
      workspaceId,
      // The workspace's customer names, and a write gate that lets the write run.
      policy: testPolicy({ names: CUSTOMERS.map((c) => c.name), authorizeWrite: async () => ({ decision: 'execute' }) }),
      trigger: 'test',
    });

    expect(result.stopReason).toBe('finished');
    for (const request of fake.requests) {
      for (const secret of SECRETS) expect(request.raw.toLowerCase()).not.toContain(secret.toLowerCase());
      expect(request.raw).not.toContain('mario.rossi');
    }
    expect(aliases!.name).toMatch(/^Cliente-[0-9A-F]{4}$/);
    expect(aliases!.email).toMatch(/^email-[0-9A-F]{4}$/);
    // The first message and the tool result name Mario Rossi with the same alias.
    expect(fake.requests[0]!.raw).toContain(aliases!.name);

    expect(received).toEqual([{ to: 'mario.rossi@example.it', name: 'Mario Rossi', text: 'Ciao Mario Rossi, ci manchi!' }]);
    expect(result.output).toEqual({ summary: 'Wrote to Mario Rossi' });
    // What went back to the model about the write is pseudonymized too.
    expect(fake.requests.at(-1)!.raw).toContain(`sent to ${aliases!.email}`);
  });

  it('a customer named by surname or first name and initial reaches the model as the alias of their full name, and the write tool gets the full name', async () => {
    fake.reset();
    const { workspaceId } = await createTestWorkspace(db());
    const received: unknown[] = [];
    const sendMessage = defineTool({
      name: 'send_message',
      description: 'Sends a message to a customer.',
      input: z.object({ name: z.string(), text: z.string() }),
      kind: 'write',
      handler: async (input) => (received.push(input), 'sent'),
    });
    let alias = '';
    fake.respond = (request) => {
      if (alias) return { toolCalls: [{ name: 'finish', input: { summary: `Wrote to ${alias}` } }] };
      alias = /Cliente-[0-9A-F]{4}/.exec(request.body.messages[0].content[0].text)![0];
      return { toolCalls: [{ name: 'send_message', input: { name: alias, text: `Ciao ${alias}` } }] };
    };
    const result = await runAgent({
      system: 'You write to customers.',
      firstMessage: 'Giulia Bianchi here: write to Rossi, and tell Mario R. the colour is ready.',
      tools: [sendMessage],
      workspaceId,
      policy: testPolicy({ names: ['Mario Rossi', 'Giulia Bianchi'], authorizeWrite: async () => ({ decision: 'execute' }) }),
      speaker: 'Giulia Bianchi',
      trigger: 'test',
    });
    expect(result.stopReason).toBe('finished');
    // One person, one alias: the surname and the first name with initial both stand for Mario Rossi.
    expect(fake.requests[0]!.text).toContain(`Giulia Bianchi here: write to ${alias}, and tell ${alias} the colour is ready.`);
    for (const request of fake.requests) expect(request.raw).not.toMatch(/Rossi|Mario R/);
    expect(received).toEqual([{ name: 'Mario Rossi', text: 'Ciao Mario Rossi' }]);
    expect(result.output).toEqual({ summary: 'Wrote to Mario Rossi' });
  });
});

describe('PiiVault', () => {
  const key = randomBytes(32);

  it('gives a value the same alias every time in a workspace, and another one elsewhere', () => {
    const a = new PiiVault(key, 'ws-1', []);
    const b = new PiiVault(key, 'ws-1', []);
    const c = new PiiVault(key, 'ws-2', []);
    const text = 'write to anna@example.com';
    expect(a.pseudonymize(text)).toBe(b.pseudonymize(text));
    expect(a.pseudonymize(text)).not.toBe(c.pseudonymize(text));
    expect(a.pseudonymize('ANNA@example.com')).toBe(a.pseudonymize('anna@example.com'));
  });

  it('masks names case-insensitively as whole words only', () => {
    const vault = new PiiVault(key, 'ws', ['Anna Neri', 'Bo']);
    const out = vault.pseudonymize('anna neri and ANNA  NERI met Annalisa; Bob said hi');
    expect(out).toMatch(/^Cliente-[0-9A-F]{4} and Cliente-[0-9A-F]{4} met Annalisa; Bob said hi$/);
    expect(vault.reidentify(out)).toBe('anna neri and anna neri met Annalisa; Bob said hi');
  });

  it("gives a surname and a first name with the surname's initial the full name's alias when they are one person's", () => {
    const names = ['Mario Rossi', 'Anna De Luca', 'Maria Grazia Verdi', "Sara D'Angelo"];
    const vault = new PiiVault(key, 'ws-short', names);
    const alias = (text: string) => new PiiVault(key, 'ws-short', names).pseudonymize(text);
    const [mario, anna, maria, sara] = names.map(alias);
    for (const a of [mario, anna, maria, sara]) expect(a).toMatch(/^Cliente-[0-9A-F]{4}$/);
    expect(vault.pseudonymize('Rossi called; so did Mario R. and Mario R, not Mario Rossetti.')).toBe(
      `${mario} called; so did ${mario} and ${mario}, not Mario Rossetti.`,
    );
    expect(vault.pseudonymize('la signora de Luca (Anna D.), ROSSI')).toBe(`la signora ${anna} (${anna}), ${mario}`);
    expect(vault.pseudonymize('Maria Grazia V. or Maria V. or Verdi')).toBe(`${maria} or ${maria} or ${maria}`);
    expect(vault.pseudonymize('Sara D’Angelo, D’Angelo')).toBe(`${sara}, ${sara}`);
    // What the alias stands for is the person: a write tool gets the full name, however the text named them.
    expect(vault.reidentify(`Ciao ${mario}, ${anna}`)).toBe('Ciao Mario Rossi, Anna De Luca');
  });

  it('gives a short form several people share an alias of its own, and leaves lowercase short forms and one-word names alone', () => {
    const vault = new PiiVault(key, 'ws-shared', ['Mario Rossi', 'Luigi Rossi', 'Sole', 'Anna Costa', 'Al Neri']);
    const rossi = vault.pseudonymize('Rossi');
    expect(rossi).toMatch(/^Cliente-[0-9A-F]{4}$/);
    expect([vault.pseudonymize('Mario Rossi'), vault.pseudonymize('Luigi Rossi')]).not.toContain(rossi);
    expect(vault.reidentify(rossi)).toBe('Rossi');
    expect(vault.pseudonymize('Costa')).toBe(vault.pseudonymize('Anna Costa'));
    expect(vault.pseudonymize('Sole')).toMatch(/^Cliente-[0-9A-F]{4}$/);
    // Names are written with a capital: the same words in lowercase are words.
    expect(vault.pseudonymize('il sole sulla costa, rossi di sera')).toBe('il sole sulla costa, rossi di sera');
    // A first name shorter than three letters makes no short form ("Al N." would mask too much).
    expect(vault.pseudonymize('Al N. and Neri')).toBe(`Al N. and ${vault.pseudonymize('Al Neri')}`);
  });

  it("leaves the speaker's own name and its short forms as written, and aliases everyone else's", () => {
    const vault = new PiiVault(key, 'ws-speaker', ['Giulia Rossi', 'Mario Bianchi'], 'Giulia  Rossi');
    const out = vault.pseudonymize('Giulia Rossi (Giulia R., Rossi) asks about Mario Bianchi.');
    expect(out).toMatch(/^Giulia Rossi \(Giulia R\., Rossi\) asks about Cliente-[0-9A-F]{4}\.$/);
  });

  it('masks uppercase emails as the same address', () => {
    const vault = new PiiVault(key, 'ws', []);
    const upper = vault.pseudonymize('write to MARIO.ROSSI@EXAMPLE.IT today');
    expect(upper).toMatch(/^write to email-[0-9A-F]{4} today$/);
    expect(vault.pseudonymize('write to mario.rossi@example.it today')).toBe(upper);
  });

  it('masks nine-digit phone numbers, written in groups or not', () => {
    const vault = new PiiVault(key, 'ws', []);
    for (const phone of ['06 123 4567', '061234567', '06-123-4567', '+39 06 123 4567']) {
      expect(vault.pseudonymize(`call ${phone} now`)).toMatch(/^call tel-[0-9A-F]{4} now$/);
    }
    expect(vault.pseudonymize('06 123 4567')).toBe(vault.pseudonymize('061234567'));
  });

  it('masks phones but not amounts, dates, times, ids or uuids', () => {
    const vault = new PiiVault(key, 'ws', []);
    const keep = 'revenue 1.234.567 EUR on 2026-11-30 at 10:30, order 100234567, id 550e8400-e29b-41d4-a716-346655440000, 42 bookings';
    expect(vault.pseudonymize(keep)).toBe(keep);
    for (const phone of ['+39 333 123 4567', '3331234567', '0039 06 1234 5678', '+1 (415) 555-0100', '06-1234-5678']) {
      expect(vault.pseudonymize(`call ${phone} now`)).toMatch(/^call tel-[0-9A-F]{4} now$/);
    }
  });

  it('masks only valid IBANs, card numbers and codici fiscali', () => {
    const vault = new PiiVault(key, 'ws', []);
    expect(vault.pseudonymize('IT60X0542811101000000123456')).toMatch(/^iban-/);
    expect(vault.pseudonymize('IT60 X054 2811 1010 0000 0123 456')).toMatch(/^iban-/);
    expect(vault.pseudonymize('IT61 X054 2811 1010 0000 0123 456')).toBe('IT61 X054 2811 1010 0000 0123 456');
    expect(vault.pseudonymize('4111-1111-1111-1111')).toMatch(/^carta-/);
    expect(vault.pseudonymize('4111 1111 1111 1112')).toBe('4111 1111 1111 1112');
    expect(vault.pseudonymize('rssmra80a01h501u')).toMatch(/^cf-/);
    expect(vault.pseudonymize('RSSMRA80A01H501X')).toBe('RSSMRA80A01H501X');
  });

  it('re-identifies aliases inside nested arguments and leaves unknown ones alone', () => {
    const vault = new PiiVault(key, 'ws', ['Mario Rossi']);
    const masked = vault.pseudonymize('Mario Rossi <mario@example.it>');
    const [name, email] = masked.match(/(Cliente|email)-[0-9A-F]+/g)!;
    expect(vault.reidentify({ to: [email], body: `Ciao ${name}`, n: 3, other: 'Cliente-0000' })).toEqual({
      to: ['mario@example.it'],
      body: 'Ciao Mario Rossi',
      n: 3,
      other: 'Cliente-0000',
    });
  });

  it('pseudonymizes a tool output value by value: the JSON is what pseudonymizing its text gives', () => {
    const vault = new PiiVault(key, 'ws', ['Mario Rossi', 'Giulia Bianchi']);
    const text = new PiiVault(key, 'ws', ['Mario Rossi', 'Giulia Bianchi']);
    const output = {
      customers: [
        { name: 'Mario Rossi', email: 'mario.rossi@example.it', phone: '+39 333 123 4567', visits: 7, since: new Date('2025-03-01T10:00:00Z') },
        { name: 'giulia  bianchi', card: '4111 1111 1111 1111', cf: 'RSSMRA80A01H501U', iban: 'IT60X0542811101000000123456', tags: ['vip', null, true] },
      ],
      note: 'Mario Rossi asked to be called on 06 1234 5678, ref 550e8400-e29b-41d4-a716-346655440000',
      revenue: 1234567.5,
      'anna@example.com': 'a key that is an address',
    };
    const json = JSON.stringify(vault.pseudonymizeValue(output));
    expect(json).toBe(text.pseudonymize(JSON.stringify(output)));
    for (const secret of ['Mario Rossi', 'mario.rossi', '333 123 4567', '4111', 'RSSMRA', 'IT60', '1234 5678', 'anna@']) expect(json).not.toContain(secret);
    expect(JSON.parse(json).customers[0].since).toBe('2025-03-01T10:00:00.000Z');
    expect(JSON.parse(json).revenue).toBe(1234567.5);
    // The same values give the same aliases on every later call of the run.
    expect(JSON.stringify(vault.pseudonymizeValue(output))).toBe(json);
  });

  it('turns a number that is a phone or card number into its alias and leaves other numbers as numbers', () => {
    const vault = new PiiVault(key, 'ws', []);
    const out = vault.pseudonymizeValue({ mobile: 3331234567, card: 4111111111111111, orders: 100234567, cents: 12345678, small: 42 }) as Record<string, unknown>;
    expect(out.mobile).toMatch(/^tel-[0-9A-F]{4}$/);
    expect(out.card).toMatch(/^carta-[0-9A-F]{4}$/);
    expect(out).toMatchObject({ orders: 100234567, cents: 12345678, small: 42 });
    expect(vault.reidentify(out.mobile)).toBe('3331234567');
  });

  it('keeps a "__proto__" key of a tool output as a plain property', () => {
    const vault = new PiiVault(key, 'ws', []);
    const out = vault.pseudonymizeValue(JSON.parse('{"__proto__": {"email": "x@example.com"}, "ok": true}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(JSON.stringify(out)).toMatch(/^\{"__proto__":\{"email":"email-[0-9A-F]{4}"\},"ok":true\}$/);
  });

  it('checks IBAN, Luhn and codice fiscale checksums', () => {
    expect(ibanValid('GB82WEST12345698765432')).toBe(true);
    expect(ibanValid('GB82WEST12345698765433')).toBe(false);
    expect(luhnValid('5555555555554444')).toBe(true);
    expect(luhnValid('5555555555554445')).toBe(false);
    expect(codiceFiscaleValid('RSSMRA85T10A562S')).toBe(true);
    expect(codiceFiscaleValid('RSSMRA85T10A562T')).toBe(false);
  });
});
