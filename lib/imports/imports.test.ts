import { readFile } from 'node:fs/promises';
import path from 'node:path';
import iconv from 'iconv-lite';
import { beforeAll, describe, expect, it } from 'vitest';
import * as exportRoute from '@/app/api/workspaces/[workspaceId]/exports/[table]/route';
import * as previewRoute from '@/app/api/workspaces/[workspaceId]/imports/preview/route';
import * as importRoute from '@/app/api/workspaces/[workspaceId]/imports/route';
import { signAccessToken } from '@/lib/auth';
import { asService, type SessionUser } from '@/lib/db';
import { planetSummaries } from '@/lib/home';
import { createWorkspace, type Workspace } from '@/lib/workspaces';
import { setupTestDatabase } from '@/test/db';
import { createUser, joinWorkspace } from '@/test/fixtures';
import { detectDelimiter, detectEncoding, guessMapping, MAX_UPLOAD_BYTES, previewImport, runImport, type ColumnMapping, type ImportTable } from './index';

setupTestDatabase();

const FIXTURES = path.join(import.meta.dirname, '../../test/fixtures/csv');
const fixture = (name: string) => readFile(path.join(FIXTURES, name));
async function* bytesOf(data: Uint8Array | string): AsyncIterable<Uint8Array> {
  const all = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  // Small chunks, so multi-byte letters and records are split across them as a network would.
  for (let at = 0; at < all.length; at += 97) yield all.subarray(at, at + 97);
}
const upload = async (table: ImportTable, file: string | Uint8Array, mapping?: ColumnMapping) => ({
  table,
  mapping,
  bytes: bytesOf(typeof file === 'string' && file.endsWith('.csv') ? await fixture(file) : file),
});
const q = <T = Record<string, any>>(sql: string, params: unknown[] = []) => asService((tx) => tx.query<T>(sql, params));

type Handler = (req: Request, segment?: { params?: Promise<Record<string, string>> }) => Promise<Response>;
function post(handler: Handler, user: SessionUser | null, workspaceId: string, init: { path?: string; body?: BodyInit; headers?: Record<string, string> }) {
  const headers: Record<string, string> = { ...init.headers };
  return (async () => {
    if (user) headers.authorization = `Bearer ${await signAccessToken(user)}`;
    const req = new Request(`http://test/api/workspaces/${workspaceId}/imports${init.path ?? ''}`, { method: 'POST', headers, body: init.body });
    return handler(req, { params: Promise.resolve({ workspaceId }) });
  })();
}
function form(table: string, file: Uint8Array | string, mapping?: ColumnMapping) {
  const body = new FormData();
  body.set('table', table);
  body.set('file', new Blob([file as BlobPart], { type: 'text/csv' }), 'file.csv');
  if (mapping) body.set('mapping', JSON.stringify(mapping));
  return body;
}

let owner: SessionUser;
let admin: SessionUser;
let member: SessionUser;
let stranger: SessionUser;
let salon: Workspace;

beforeAll(async () => {
  [owner, admin, member, stranger] = (await Promise.all(['owner', 'admin', 'member', 'stranger'].map((n) => createUser(n)))) as [SessionUser, SessionUser, SessionUser, SessionUser];
  salon = await createWorkspace(owner, { name: 'Salone Nuovo', timeZone: 'Europe/Rome', locale: 'it', sector: 'hair_salon' });
  await joinWorkspace(owner, salon.id, admin, 'admin');
  await joinWorkspace(owner, salon.id, member);
});

describe('reading the file', () => {
  it('finds the encoding: a BOM or valid UTF-8 is UTF-8, an Excel export from Windows is Windows-1252', async () => {
    expect(detectEncoding(await fixture('services.csv'))).toBe('utf-8'); // with a BOM
    expect(detectEncoding(await fixture('appointments.csv'))).toBe('utf-8');
    expect(detectEncoding(await fixture('customers.csv'))).toBe('windows-1252');
    // A UTF-8 sample cut inside "ò" is still UTF-8.
    const cut = new TextEncoder().encode('Nome\nNicolò').subarray(0, 11);
    expect(detectEncoding(cut)).toBe('utf-8');
  });

  it('finds the delimiter, also with commas inside quoted cells', () => {
    expect(detectDelimiter('a;b;c\n1;"2,5";3\n')).toBe(';');
    expect(detectDelimiter('a\tb\n1\t2\n')).toBe('\t');
    expect(detectDelimiter('Name,Price\n"Barba, rapida","12,50"\n')).toBe(',');
  });

  it('guesses the mapping from English and Italian headers', () => {
    expect(guessMapping('customers', ['Nome', 'Cognome', 'Telefono', 'E-mail'])).toEqual({ first_name: 0, last_name: 1, phone: 2, email: 3 });
    expect(guessMapping('customers', ['First name', 'Last name', 'Mobile', 'Email Address', 'Customer ID'])).toEqual({
      external_id: 4,
      first_name: 0,
      last_name: 1,
      email: 3,
      phone: 2,
    });
    // A lone "Nome" is the whole name; "Cellulare" is the phone.
    expect(guessMapping('customers', ['Nome', 'Cellulare'])).toEqual({ name: 0, phone: 1 });
    expect(guessMapping('customers', ['Phone', 'Full name', 'Notes'])).toEqual({ name: 1, phone: 0 });
    expect(guessMapping('appointments', ['Data', 'Ora', 'Cliente', 'Servizio', 'Operatore', 'Stato'])).toEqual({
      date: 0,
      time: 1,
      customer_name: 2,
      service_name: 3,
      staff_name: 4,
      status: 5,
    });
  });
});

describe('importing the clean fixtures, in order', () => {
  it('previews without writing: format, guessed mapping, first rows checked', async () => {
    const preview = await previewImport(owner, salon.id, await upload('customers', 'customers.csv'), 'en');
    expect(preview).toMatchObject({ format: { encoding: 'windows-1252', delimiter: ';' }, missing: [], rows: 12, valid: 12, errorCount: 0 });
    expect(preview.headers).toEqual(['Codice cliente', 'Nome', 'Cognome', 'E-mail', 'Cellulare', 'Consenso marketing', 'Consenso SMS']);
    expect(preview.mapping).toEqual({ external_id: 0, first_name: 1, last_name: 2, email: 3, phone: 4, consent_marketing: 5, consent_messages: 6 });
    expect(preview.sample[0]).toMatchObject({ line: 2, cells: ['C001', 'Nicolò', 'Bianchi', 'nicolo.bianchi@example.com', '333 123 4567', 'Sì', 'Sì'], problems: [] });
    expect(await q(`select 1 from public.customers where workspace_id = $1`, [salon.id])).toEqual([]);
  });

  it('imports services, staff, customers and appointments; accents, phones, prices and consent as the files say', async () => {
    expect(await runImport(owner, salon.id, await upload('services', 'services.csv'), 'en')).toMatchObject({ rows: 4, inserted: 4, updated: 0, errorCount: 0 });
    expect(await runImport(admin, salon.id, await upload('staff', 'staff.csv'), 'en')).toMatchObject({ format: { delimiter: '\t' }, inserted: 3, errorCount: 0 });
    expect(await runImport(owner, salon.id, await upload('customers', 'customers.csv'), 'en')).toMatchObject({ inserted: 12, errorCount: 0 });
    const appointments = await runImport(owner, salon.id, await upload('appointments', 'appointments.csv'), 'en', new Date('2026-12-06T12:00:00Z'));
    expect(appointments).toMatchObject({ rows: 65, inserted: 65, errorCount: 0 });

    const services = await q(`select external_id, name, duration_minutes, price_cents from public.services where workspace_id = $1 order by external_id`, [salon.id]);
    expect(services).toEqual([
      { external_id: 'S1', name: 'Taglio donna', duration_minutes: 45, price_cents: 3500 },
      { external_id: 'S2', name: 'Piega', duration_minutes: 30, price_cents: 2200 },
      { external_id: 'S3', name: 'Colore', duration_minutes: 90, price_cents: 6000 },
      { external_id: 'S4', name: 'Barba', duration_minutes: 20, price_cents: 1250 },
    ]);
    expect(await q(`select name, active from public.staff where workspace_id = $1 order by external_id`, [salon.id])).toEqual([
      { name: 'Giulia Bianchi', active: true },
      { name: 'Marco Rossi', active: true },
      { name: 'Sara Conti', active: false },
    ]);
    const customers = await q(`select * from public.customers where workspace_id = $1 order by external_id`, [salon.id]);
    expect(customers.slice(0, 4).map((c) => [c.name, c.phone, c.consent_marketing, c.consent_messages])).toEqual([
      ['Nicolò Bianchi', '+393331234567', true, true],
      ['Francesca Città', '+393477654321', true, true],
      ['Lucia Ferrari', '+393201112223', false, true],
      ['Matteo Esposito', '+390612345678', true, true],
    ]);
    expect(customers[3]!.email).toBeNull();

    // 10:00 on 3 August in Rome is 08:00 UTC; the price is the service's when the file has none.
    const [first] = await q(`select a.*, s.name as service from public.appointments a join public.services s on s.id = a.service_id where a.external_id = 'A0001'`);
    expect(first).toMatchObject({ status: 'completed', service: 'Piega', price_cents: 2200 });
    expect(first!.starts_at.toISOString()).toBe('2026-08-03T08:00:00.000Z');
    expect(first!.ends_at.toISOString()).toBe('2026-08-03T08:30:00.000Z');
    const cancelled = await q(`select starts_at, cancelled_at from public.appointments where workspace_id = $1 and status = 'cancelled'`, [salon.id]);
    expect(cancelled.length).toBeGreaterThan(0);
    expect(cancelled.every((a) => a.cancelled_at.getTime() === a.starts_at.getTime())).toBe(true);
    // The visit statistics the CRM reads follow the completed appointments at once.
    const [nicolo] = await q(`select visit_count, last_visit_at from public.customers where workspace_id = $1 and external_id = 'C001'`, [salon.id]);
    const [completed] = await q(`select count(*)::int as n, max(a.starts_at) as last from public.appointments a join public.customers c on c.id = a.customer_id where c.external_id = 'C001' and c.workspace_id = $1 and a.status = 'completed'`, [salon.id]);
    expect(nicolo).toEqual({ visit_count: completed!.n, last_visit_at: completed!.last });
  });

  it('the Home and the planets count what was imported at once', async () => {
    const planets = await planetSummaries(member, salon.id, new Date('2026-12-06T12:00:00Z'));
    expect(planets.find((p) => p.planet === 'booking')).toMatchObject({ hasData: true });
    expect(planets.find((p) => p.planet === 'crm')).toMatchObject({ hasData: true });
  });

  it('re-importing the same files updates by external id instead of duplicating, and changes what changed', async () => {
    expect(await runImport(owner, salon.id, await upload('customers', 'customers.csv'), 'en')).toMatchObject({ inserted: 0, updated: 0, unchanged: 12 });
    expect(await runImport(owner, salon.id, await upload('appointments', 'appointments.csv'), 'en', new Date('2026-12-06T12:00:00Z'))).toMatchObject({
      inserted: 0,
      updated: 0,
      unchanged: 65,
    });
    const edited = 'Codice cliente;Nome;Cognome;Cellulare;Consenso marketing\nC002;Francesca;Città;+39 347 000 0000;No\nC099;Nuova;Cliente;;\n';
    expect(await runImport(owner, salon.id, await upload('customers', edited), 'en')).toMatchObject({ inserted: 1, updated: 1, unchanged: 0 });
    const rows = await q(`select external_id, email, phone, consent_marketing, consent_messages from public.customers where workspace_id = $1 and external_id in ('C002', 'C099') order by external_id`, [salon.id]);
    // C002: the phone and marketing consent the file has; the email and SMS consent it has no column for, kept.
    // C099: new, and with no consent column for messages nor a "yes" for marketing, no consent at all.
    expect(rows).toEqual([
      { external_id: 'C002', email: 'francesca.citta@example.com', phone: '+393470000000', consent_marketing: false, consent_messages: true },
      { external_id: 'C099', email: null, phone: null, consent_marketing: false, consent_messages: false },
    ]);
    expect(await q(`select count(*)::int as n from public.customers where workspace_id = $1`, [salon.id])).toEqual([{ n: 13 }]);
    expect(await q(`select count(*)::int as n from public.appointments where workspace_id = $1`, [salon.id])).toEqual([{ n: 65 }]);
  });
});

describe('a file with errors', () => {
  it('imports the good rows and reports each bad one with its reason', async () => {
    const team = await createWorkspace(owner, { name: 'Errors', timeZone: 'Europe/Rome', locale: 'it' });
    const report = await runImport(owner, team.id, await upload('customers', 'customers-with-errors.csv'), 'en');
    expect(report).toMatchObject({ rows: 8, inserted: 3, updated: 0, errorCount: 5 });
    expect(report.errors.map((e) => [e.line, e.problems.map((p) => `${p.field}:${p.problem}`)])).toEqual([
      [3, ['email:email']],
      [4, ['first_name:required']],
      [5, ['phone:phone']],
      [6, ['external_id:duplicate']],
      [7, ['consent_marketing:yesNo']],
    ]);
    expect(report.errors[0]!.problems[0]!.message).toBe('Not an email address.');
    expect(report.errors[3]!.problems[0]!.message).toBe('The same id as row 2: only the first is imported.');
    const italian = await previewImport(owner, team.id, await upload('customers', 'customers-with-errors.csv'), 'it');
    expect(italian.errors[0]!.problems[0]!.message).toBe('Non è un indirizzo email.');

    const rows = await q(`select external_id, name, phone, consent_marketing, consent_messages from public.customers where workspace_id = $1 order by external_id`, [team.id]);
    // No column for message consent: nobody has it.
    expect(rows).toEqual([
      { external_id: 'E1', name: 'Anna Verdi', phone: '+393330001111', consent_marketing: true, consent_messages: false },
      { external_id: 'E7', name: 'Franco Ricci', phone: null, consent_marketing: false, consent_messages: false },
      { external_id: 'E8', name: 'Gina Lombardi', phone: '+442079460958', consent_marketing: false, consent_messages: false },
    ]);
  });

  it('reports a cell holding a NUL character as that row’s problem, and imports the others', async () => {
    const team = await createWorkspace(owner, { name: 'Nul', timeZone: 'Europe/Rome', locale: 'en' });
    const report = await runImport(owner, team.id, await upload('customers', 'Name,Email\nA\u0000na,ana@example.com\nBea,bea@example.com\n'), 'en');
    expect(report).toMatchObject({ rows: 2, inserted: 1, errorCount: 1 });
    expect(report.errors.map((e) => e.line)).toEqual([2]);
    expect(report.errors[0]!.problems[0]).toEqual({ field: 'name', problem: 'nul', message: 'Holds a NUL character, which cannot be stored: save the file again as CSV.' });
    expect(await q(`select name from public.customers where workspace_id = $1`, [team.id])).toEqual([{ name: 'Bea' }]);
  });

  it('numbers rows by the file’s lines, as a spreadsheet does, blank lines included', async () => {
    const preview = await previewImport(owner, salon.id, await upload('customers', 'Name,Email\nAna,ana@example.com\n\n,,\nBea,not-an-email\n'), 'en');
    expect(preview.errors.map((e) => e.line)).toEqual([5]);
    expect(preview).toMatchObject({ rows: 2, valid: 1 });
  });

  it('reports appointments whose customer, service or staff member cannot be found, or is ambiguous', async () => {
    const file = [
      'Date,Time,Customer,Service,Staff',
      '07/12/2026,10:00,Nicolò Bianchi,Piega,Giulia Bianchi',
      '07/12/2026,11:00,Nobody Known,Piega,Giulia Bianchi',
      '07/12/2026,12:00,Nicolò Bianchi,Massage,Nobody',
      '31/02/2026,12:00,Nicolò Bianchi,Piega,Giulia Bianchi',
    ].join('\n');
    const preview = await previewImport(owner, salon.id, await upload('appointments', file), 'en');
    expect(preview.mapping).toEqual({ date: 0, time: 1, customer_name: 2, service_name: 3, staff_name: 4 });
    expect(preview.errors.map((e) => [e.line, e.problems.map((p) => `${p.field}:${p.problem}`)])).toEqual([
      [3, ['customer_name:customerNotFound']],
      [4, ['service_name:serviceNotFound', 'staff_name:staffNotFound']],
      [5, ['date:dateTime']],
    ]);
    expect(preview).toMatchObject({ rows: 4, valid: 1 });
  });

  it('refuses an import whose mapping leaves out what a table needs, and previews it with the gap named', async () => {
    const file = 'Email,Phone\na@example.com,+39 333 000 1111\n';
    const preview = await previewImport(owner, salon.id, await upload('customers', file), 'en');
    expect(preview).toMatchObject({ missing: ['name'], rows: 0 });
    expect(preview.sample).toEqual([{ line: 2, cells: ['a@example.com', '+39 333 000 1111'], problems: [] }]);
    await expect(runImport(owner, salon.id, await upload('customers', file), 'en')).rejects.toMatchObject({ status: 422 });
    await expect(runImport(owner, salon.id, await upload('customers', file, { name: 5 }), 'en')).rejects.toMatchObject({ status: 422 });
  });

  it('reads a Windows-1252 file with the owner’s mapping instead of the guess', async () => {
    const bytes = iconv.encode('Cliente;Telefono fisso\nRenée Müller;02 1234 5678\n', 'win1252');
    const report = await runImport(owner, salon.id, await upload('customers', bytes, { name: 0, phone: 1 }), 'en');
    expect(report).toMatchObject({ format: { encoding: 'windows-1252', delimiter: ';' }, inserted: 1, errorCount: 0 });
    expect(await q(`select phone from public.customers where workspace_id = $1 and name = 'Renée Müller'`, [salon.id])).toEqual([{ phone: '+390212345678' }]);
  });
});

describe('the API', () => {
  it('owners and admins import through multipart or a text body; a member gets 403 and nothing is written; a stranger 404', async () => {
    const team = await createWorkspace(owner, { name: 'API', timeZone: 'Europe/London', locale: 'en' });
    await joinWorkspace(owner, team.id, member);
    const file = 'First name,Last name,Phone\nAlice,Smith,020 7946 0958\n';

    const preview = await post(previewRoute.POST as Handler, owner, team.id, { path: '/preview', body: form('customers', file) });
    expect(preview.status).toBe(200);
    // Field names stay as requests send them (first_name), the rest of the answer is camelCase.
    expect((await preview.json()).data).toMatchObject({ mapping: { first_name: 0, last_name: 1, phone: 2 }, errorCount: 0, valid: 1, sample: [{ line: 2, cells: ['Alice', 'Smith', '020 7946 0958'] }] });

    const imported = await post(importRoute.POST as Handler, owner, team.id, { body: form('customers', file, { first_name: 0, last_name: 1, phone: 2 }) });
    expect(imported.status).toBe(200);
    expect((await imported.json()).data).toMatchObject({ inserted: 1, errorCount: 0 });
    // Europe/London: a number without +44 is British.
    expect(await q(`select phone from public.customers where workspace_id = $1`, [team.id])).toEqual([{ phone: '+442079460958' }]);

    const asText = await post(importRoute.POST as Handler, owner, team.id, {
      path: `?table=customers&mapping=${encodeURIComponent(JSON.stringify({ name: 0 }))}`,
      body: 'Name\nBob Jones\n',
      headers: { 'content-type': 'text/csv' },
    });
    expect((await asText.json()).data).toMatchObject({ inserted: 1 });

    const refused = await post(importRoute.POST as Handler, member, team.id, { body: form('customers', 'Name\nMallory\n') });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ success: false, error: { code: 'forbidden', message: 'Only the owner and admins can import data.' } });
    const refusedPreview = await post(previewRoute.POST as Handler, member, team.id, { path: '/preview', body: form('customers', 'Name\nMallory\n') });
    expect(refusedPreview.status).toBe(403);
    const hidden = await post(importRoute.POST as Handler, stranger, team.id, { body: form('customers', 'Name\nMallory\n') });
    expect(hidden.status).toBe(404);
    expect(await q(`select name from public.customers where workspace_id = $1 order by name`, [team.id])).toEqual([{ name: 'Alice Smith' }, { name: 'Bob Jones' }]);
  });

  it('authentication first, then clear 4xx for a bad upload, never a 500', async () => {
    const noSession = await post(importRoute.POST as Handler, null, salon.id, { body: form('customers', 'Name\nX\n') });
    expect(noSession.status).toBe(401);

    const tooLarge = await post(importRoute.POST as Handler, owner, salon.id, {
      body: 'Name\nX\n',
      path: '?table=customers',
      headers: { 'content-type': 'text/csv', 'content-length': String(MAX_UPLOAD_BYTES + 1) },
    });
    expect(tooLarge.status).toBe(413);
    expect((await tooLarge.json()).error).toMatchObject({ code: 'payload_too_large', message: 'The file is too large: at most 10 MB. Split it into several files.' });

    // Over the limit without a Content-Length: counted while streaming, and nothing of it is kept.
    // 99 rows in 100 fail their email check (reading, not writing, is what takes the time here); the
    // others are written in batches before the limit is reached, and rolled back with the rest.
    const big = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('Name,Email\n'));
        const row = new TextEncoder().encode(`${'Streamed Person,not-an-email\n'.repeat(99)}Streamed Person,streamed@example.com\n`.repeat(300));
        for (let sent = 0; sent <= MAX_UPLOAD_BYTES; sent += row.length) controller.enqueue(row);
        controller.close();
      },
    });
    const streamed = await importRoute.POST(
      new Request(`http://test/api/workspaces/${salon.id}/imports?table=customers`, {
        method: 'POST',
        headers: { authorization: `Bearer ${await signAccessToken(owner)}`, 'content-type': 'text/csv' },
        body: big,
        duplex: 'half',
      } as RequestInit),
      { params: Promise.resolve({ workspaceId: salon.id }) },
    );
    expect(streamed.status).toBe(413);
    expect(await q(`select 1 from public.customers where name = 'Streamed Person' limit 1`)).toEqual([]);


    const cases: Array<[BodyInit, Record<string, string>, string, number]> = [
      [form('pets', 'Name\nX\n'), {}, '', 422],
      [form('customers', 'Name\nX\n', { vip: 0, external_id: 0, name: 0, starts_at: 0 } as never), {}, '', 422],
      [(() => { const f = form('customers', 'Name\nX\n'); f.set('mapping', '{nope'); return f; })(), {}, '', 422],
      [(() => { const f = new FormData(); f.set('table', 'customers'); return f; })(), {}, '', 422],
      ['{"name": "x"}', { 'content-type': 'application/json' }, '', 400],
      ['', { 'content-type': 'text/csv' }, '?table=customers', 422],
      ['Name\n"unclosed\n', { 'content-type': 'text/csv' }, '?table=customers', 422],
      // A quote inside an unquoted cell (csv-parse's INVALID_OPENING_QUOTE, not a `CSV_…` code): JSON sent as CSV.
      ['{"name": "x"', { 'content-type': 'text/csv' }, '?table=customers', 422],
    ];
    for (const [body, headers, query, status] of cases) {
      const res = await post(importRoute.POST as Handler, owner, salon.id, { body, headers, path: query });
      expect(res.status, JSON.stringify(await res.clone().json())).toBe(status);
      expect((await res.json()).success).toBe(false);
    }
  }, 120_000);

  it('exports each table as CSV an import reads back, to owners and admins only', async () => {
    const get = async (user: SessionUser, table: string) =>
      exportRoute.GET(
        new Request(`http://test/api/workspaces/${salon.id}/exports/${table}`, { headers: { authorization: `Bearer ${await signAccessToken(user)}` } }),
        { params: Promise.resolve({ workspaceId: salon.id, table }) },
      );
    const res = await get(admin, 'customers');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const bytes = new Uint8Array(await res.arrayBuffer());
    const text = new TextDecoder().decode(bytes);
    expect(text.split('\n')[0]).toBe('external_id,name,email,phone,consent_marketing,consent_messages,vip,visit_count,last_visit_at');
    expect(text).toContain('C001,Nicolò Bianchi,nicolo.bianchi@example.com,+393331234567,yes,yes,no,');
    // Read back: the same customers, updated in place.
    const before = await q(`select count(*)::int as n from public.customers where workspace_id = $1`, [salon.id]);
    const again = await runImport(owner, salon.id, { table: 'customers', bytes: bytesOf(bytes) }, 'en');
    expect(again).toMatchObject({ errorCount: 0, inserted: 0 });
    expect(again.updated + again.unchanged).toBe(before[0]!.n);
    expect(await q(`select count(*)::int as n from public.customers where workspace_id = $1`, [salon.id])).toEqual(before);
    // Made without an external id (the Windows-1252 test), exported with its own id: that id is now its external id.
    expect(await q(`select id::text = external_id as adopted from public.customers where workspace_id = $1 and name = 'Renée Müller'`, [salon.id])).toEqual([{ adopted: true }]);

    const appointments = new Uint8Array(await (await get(owner, 'appointments')).arrayBuffer());
    // UTF-8 with a byte-order mark, so Excel reads the accents.
    expect([...appointments.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder().decode(appointments).trim().split('\n');
    expect(lines).toHaveLength(1 + 65);
    expect(lines[0]).toBe('external_id,starts_at,ends_at,status,price,customer_external_id,customer_email,customer_name,service_external_id,service_name,staff_external_id,staff_name');

    expect((await get(member, 'customers')).status).toBe(403);
    expect((await get(stranger, 'customers')).status).toBe(404);
    expect((await get(owner, 'pets')).status).toBe(404);
  });
});
