import 'server-only';
import type { CountryCode } from 'libphonenumber-js';
import { isUuid } from '@/lib/api';
import type { Tx } from '@/lib/db';
import type { AppointmentStatus } from '@/lib/planets';
import type { ColumnMapping, ImportField, ImportTable } from './fields';
import { CellError, dateTime, duration, email, money, phone, status, text, timeOfDay, yesNo, zonedInstant, type LocalDateTime } from './values';


export interface Written {
  inserted: number;
  updated: number;
  unchanged: number;
}
/**
 * Per table: how one record becomes a row (or the problems that keep it out), and how a batch of rows
 * is written. Rows with an external id are upserted on (workspace_id, external_id); a column the file
 * does not have is left as it is on update and takes the table's default on insert (no consent column:
 * no consent), and an empty cell in a text column leaves the stored value alone.
 */

export interface ImportContext {
  workspaceId: string;
  timeZone: string;
  country: CountryCode | undefined;
  now: Date;
  mapping: ColumnMapping;
  /** Appointments only: the workspace's customers, services and staff, to resolve references. */
  lookups?: Lookups;
}

export interface FieldProblem {
  field: ImportField | null;
  error: CellError;
}

/** A record that could not be read: every problem found in it, each under the field it is about. */
export class RowProblems extends Error {
  constructor(readonly problems: FieldProblem[]) {
    super('row problems');
  }
}

type Row = Record<string, unknown> & { external_id: string | null };

export interface TableImporter {
  convert(cells: string[], ctx: ImportContext): Row;
  /** Writes the batch; returns how many rows were new, changed, and found by external id as the file has them. */
  write(tx: Tx, rows: Row[], ctx: ImportContext): Promise<Written>;
}

/** Reads each mapped field with its reader, collecting every problem of the record rather than the first. */
function reader(cells: string[], mapping: ColumnMapping) {
  const problems: FieldProblem[] = [];
  const read = <T>(field: ImportField, parse: (cell: string | undefined) => T): T | null => {
    const column = mapping[field];
    if (column === undefined) return null;
    try {
      return parse(cells[column]);
    } catch (error) {
      if (!(error instanceof CellError)) throw error;
      problems.push({ field, error });
      return null;
    }
  };
  const fail = (field: ImportField | null, error: CellError) => problems.push({ field, error });
  const done = () => {
    if (problems.length) throw new RowProblems(problems);
  };
  return { read, fail, done };
}

const mapped = (ctx: ImportContext, field: ImportField) => ctx.mapping[field] !== undefined;

/**
 * Writes a batch. A row whose external id is the id of one of this table's rows that has none (an
 * export of rows made here, imported back) first gives that row its id as external id, so the upsert
 * updates it instead of adding a copy.
 */
async function upsert(tx: Tx, table: ImportTable, sql: string, rows: Row[], workspaceId: string) {
  const own = rows.flatMap((r) => (r.external_id !== null && isUuid(r.external_id) ? [r.external_id] : []));
  if (own.length) {
    await tx.query(`update public.${table} set external_id = id::text where workspace_id = $1 and external_id is null and id = any($2::uuid[])`, [workspaceId, own]);
  }
  const written = await tx.query<{ inserted: boolean }>(sql, [workspaceId, JSON.stringify(rows)]);
  // A row found by its external id and already as the file says is left unwritten, so it returns nothing.
  const inserted = written.filter((r) => r.inserted).length;
  return { inserted, updated: written.length - inserted, unchanged: rows.length - written.length };
}

/**
 * The conflict clause: `col = coalesce(excluded.col, t.col)` for text, `col = excluded.col` for the
 * rest, only for mapped columns.
 */
function updates(ctx: ImportContext, columns: Array<{ column: string; fields: ImportField[]; keepOnBlank?: true }>): string {
  const set = columns
    .filter(({ fields }) => fields.some((f) => mapped(ctx, f)))
    .map(({ column, keepOnBlank }): [string, string] => [column, keepOnBlank ? `coalesce(nullif(excluded.${column}, ''), t.${column})` : `excluded.${column}`]);
  return set.length ? updateChanged(set) : 'do nothing';
}

/**
 * `do update set …` for the rows the file changes only: a re-import of an unchanged file rewrites no row
 * (no new row version, no index entries, no trigger work for it).
 */
function updateChanged(set: Array<[column: string, value: string]>): string {
  return `do update set ${set.map(([column, value]) => `${column} = ${value}`).join(', ')}
          where (${set.map(([column]) => `t.${column}`).join(', ')}) is distinct from (${set.map(([, value]) => value).join(', ')})`;
}

const customers: TableImporter = {
  convert(cells, ctx) {
    const { read, fail, done } = reader(cells, ctx.mapping);
    const external_id = read('external_id', (c) => text(c, 200));
    const whole = read('name', (c) => text(c, 120));
    const first = read('first_name', (c) => text(c, 60));
    const last = read('last_name', (c) => text(c, 60));
    const name = whole ?? ([first, last].filter(Boolean).join(' ') || null);
    if (!name) fail(mapped(ctx, 'name') ? 'name' : 'first_name', new CellError('required'));
    const row = {
      external_id,
      name,
      email: read('email', email),
      phone: read('phone', (c) => phone(c, ctx.country)),
      consent_marketing: read('consent_marketing', yesNo),
      consent_messages: read('consent_messages', yesNo),
      vip: read('vip', yesNo),
    };
    done();
    return row;
  },
  write(tx, rows, ctx) {
    return upsert(
      tx,
      'customers',
      `insert into public.customers as t (workspace_id, external_id, name, email, phone, consent_marketing, consent_messages, vip)
       select $1, r.external_id, r.name, r.email, r.phone, coalesce(r.consent_marketing, false), coalesce(r.consent_messages, false), coalesce(r.vip, false)
         from jsonb_to_recordset($2::jsonb) as r(external_id text, name text, email text, phone text, consent_marketing boolean, consent_messages boolean, vip boolean)
       on conflict (workspace_id, external_id) ${updates(ctx, [
         { column: 'name', fields: ['name', 'first_name', 'last_name'] },
         { column: 'email', fields: ['email'], keepOnBlank: true },
         { column: 'phone', fields: ['phone'], keepOnBlank: true },
         { column: 'consent_marketing', fields: ['consent_marketing'] },
         { column: 'consent_messages', fields: ['consent_messages'] },
         { column: 'vip', fields: ['vip'] },
       ])}
       returning (xmax = 0) as inserted`,
      rows,
      ctx.workspaceId,
    );
  },
};

const services: TableImporter = {
  convert(cells, ctx) {
    const { read, fail, done } = reader(cells, ctx.mapping);
    const row = {
      external_id: read('external_id', (c) => text(c, 200)),
      name: read('name', (c) => text(c, 120)),
      category: read('category', (c) => text(c, 60)),
      duration_minutes: read('duration_minutes', duration),
      price_cents: read('price', money),
    };
    if (!row.name) fail('name', new CellError('required'));
    if (row.duration_minutes === null && !fieldFailed(ctx, cells, 'duration_minutes')) fail('duration_minutes', new CellError('required'));
    if (row.price_cents === null && !fieldFailed(ctx, cells, 'price')) fail('price', new CellError('required'));
    done();
    return row;
  },
  write(tx, rows, ctx) {
    return upsert(
      tx,
      'services',
      `insert into public.services as t (workspace_id, external_id, name, category, duration_minutes, price_cents)
       select $1, r.external_id, r.name, coalesce(r.category, ''), r.duration_minutes, r.price_cents
         from jsonb_to_recordset($2::jsonb) as r(external_id text, name text, category text, duration_minutes integer, price_cents integer)
       on conflict (workspace_id, external_id) ${updates(ctx, [
         { column: 'name', fields: ['name'] },
         { column: 'category', fields: ['category'], keepOnBlank: true },
         { column: 'duration_minutes', fields: ['duration_minutes'] },
         { column: 'price_cents', fields: ['price'] },
       ])}
       returning (xmax = 0) as inserted`,
      rows,
      ctx.workspaceId,
    );
  },
};

/** A cell that failed to read already carries its problem; "required" would say it twice. */
function fieldFailed(ctx: ImportContext, cells: string[], field: ImportField): boolean {
  const column = ctx.mapping[field];
  return column !== undefined && Boolean(cells[column]?.trim());
}

const staff: TableImporter = {
  convert(cells, ctx) {
    const { read, fail, done } = reader(cells, ctx.mapping);
    const row = {
      external_id: read('external_id', (c) => text(c, 200)),
      name: read('name', (c) => text(c, 120)),
      active: read('active', yesNo),
    };
    if (!row.name) fail('name', new CellError('required'));
    done();
    return row;
  },
  write(tx, rows, ctx) {
    return upsert(
      tx,
      'staff',
      `insert into public.staff as t (workspace_id, external_id, name, active)
       select $1, r.external_id, r.name, coalesce(r.active, true)
         from jsonb_to_recordset($2::jsonb) as r(external_id text, name text, active boolean)
       on conflict (workspace_id, external_id) ${updates(ctx, [
         { column: 'name', fields: ['name'] },
         { column: 'active', fields: ['active'] },
       ])}
       returning (xmax = 0) as inserted`,
      rows,
      ctx.workspaceId,
    );
  },
};

/**
 * How an appointment finds what it references: by external id (for a row that has none, its own id, as an
 * export writes it), by email (customers) or by name, case-insensitive.
 */
export interface Lookups {
  customers: Index<string>;
  services: Index<{ id: string; duration: number; priceCents: number }>;
  staff: Index<string>;
}
/** A key that names two rows is ambiguous: `null`. */
type Index<T> = { byExternalId: Map<string, T>; byEmail?: Map<string, T | null>; byName: Map<string, T | null> };

export async function loadLookups(tx: Tx, workspaceId: string): Promise<Lookups> {
  const [customerRows, serviceRows, staffRows] = [
    await tx.query<{ id: string; external_id: string | null; email: string | null; name: string }>(
      `select id, external_id, lower(email) as email, name from public.customers where workspace_id = $1`,
      [workspaceId],
    ),
    await tx.query<{ id: string; external_id: string | null; name: string; duration_minutes: number; price_cents: number }>(
      `select id, external_id, name, duration_minutes, price_cents from public.services where workspace_id = $1`,
      [workspaceId],
    ),
    await tx.query<{ id: string; external_id: string | null; name: string }>(`select id, external_id, name from public.staff where workspace_id = $1`, [workspaceId]),
  ];
  const index = <R extends { id: string; external_id: string | null; name: string }, T>(rows: R[], value: (r: R) => T, email?: (r: R) => string | null): Index<T> => {
    const out: Index<T> = { byExternalId: new Map(), byName: new Map(), byEmail: email ? new Map() : undefined };
    const add = (map: Map<string, T | null>, key: string | null, v: T) => key && map.set(key, map.has(key) ? null : v);
    for (const row of rows) {
      const v = value(row);
      out.byExternalId.set(row.external_id ?? row.id, v);
      add(out.byName, nameKey(row.name), v);
      if (email && out.byEmail) add(out.byEmail, email(row), v);
    }
    return out;
  };
  return {
    customers: index(customerRows, (r) => r.id, (r) => r.email),
    services: index(serviceRows, (r) => ({ id: r.id, duration: r.duration_minutes, priceCents: r.price_cents })),
    staff: index(staffRows, (r) => r.id),
  };
}

const nameKey = (name: string | null) => name?.trim().toLowerCase().replace(/\s+/g, ' ') || null;

/**
 * The first reference given that finds exactly one row; `notFound` when none does, `ambiguous` when the
 * only matches are names shared by several.
 */
function resolve<T>(index: Index<T>, refs: { externalId: string | null; email?: string | null; name: string | null }): T | 'notFound' | 'ambiguous' {
  let ambiguous = false;
  const candidates: Array<[Map<string, T | null> | undefined, string | null | undefined]> = [
    [index.byExternalId, refs.externalId],
    [index.byEmail, refs.email?.toLowerCase()],
    [index.byName, nameKey(refs.name)],
  ];
  for (const [map, key] of candidates) {
    if (!map || !key || !map.has(key)) continue;
    const found = map.get(key);
    if (found === null) ambiguous = true;
    else if (found !== undefined) return found;
  }
  return ambiguous ? 'ambiguous' : 'notFound';
}

const appointments: TableImporter = {
  convert(cells, ctx) {
    const { read, fail, done } = reader(cells, ctx.mapping);
    const lookups = ctx.lookups!;
    const external_id = read('external_id', (c) => text(c, 200));

    // The start: one date-and-time column, or a date column and a time column, in the workspace's zone.
    const instantOf = (value: { local: LocalDateTime } | { instant: Date }) => ('instant' in value ? value.instant : zonedInstant(value.local, ctx.timeZone));
    const startCell = read('starts_at', dateTime) ?? read('date', dateTime);
    const time = read('time', timeOfDay);
    let startsAt: Date | null = null;
    if (startCell) startsAt = instantOf('local' in startCell && time ? { local: { ...startCell.local, ...time } } : startCell);
    else if (!fieldFailed(ctx, cells, 'starts_at') && !fieldFailed(ctx, cells, 'date')) fail(mapped(ctx, 'starts_at') ? 'starts_at' : 'date', new CellError('required'));

    const customer = resolve(lookups.customers, {
      externalId: read('customer_external_id', (c) => text(c, 200)),
      email: read('customer_email', (c) => text(c, 254)),
      name: read('customer_name', (c) => text(c, 120)),
    });
    if (customer === 'notFound') fail(firstMapped(ctx, ['customer_external_id', 'customer_email', 'customer_name']), new CellError('customerNotFound'));
    if (customer === 'ambiguous') fail('customer_name', new CellError('customerAmbiguous'));
    const service = resolve(lookups.services, { externalId: read('service_external_id', (c) => text(c, 200)), name: read('service_name', (c) => text(c, 120)) });
    if (service === 'notFound') fail(firstMapped(ctx, ['service_external_id', 'service_name']), new CellError('serviceNotFound'));
    if (service === 'ambiguous') fail('service_name', new CellError('serviceAmbiguous'));
    const staffId = resolve(lookups.staff, { externalId: read('staff_external_id', (c) => text(c, 200)), name: read('staff_name', (c) => text(c, 120)) });
    if (staffId === 'notFound') fail(firstMapped(ctx, ['staff_external_id', 'staff_name']), new CellError('staffNotFound'));
    if (staffId === 'ambiguous') fail('staff_name', new CellError('staffAmbiguous'));

    const end = read('ends_at', (c) => {
      if (!c?.trim() || !startCell) return null;
      // An end written as a time alone ("11:30") is on the start's day.
      if (/^\d{1,2}[:.]\d{2}(?::\d{2})?$/.test(c.trim())) {
        if (!('local' in startCell)) throw new CellError('dateTime');
        return instantOf({ local: { ...startCell.local, ...timeOfDay(c)! } });
      }
      return instantOf(dateTime(c)!);
    });
    const minutes = read('duration_minutes', duration);
    const price = read('price', money);
    const given = read('status', status);
    done();

    const svc = service as { id: string; duration: number; priceCents: number };
    const starts = startsAt!;
    const ends = end ?? new Date(starts.getTime() + (minutes ?? svc.duration) * 60_000);
    if (ends <= starts) throw new RowProblems([{ field: 'ends_at', error: new CellError('endBeforeStart') }]);
    // No status column: what is past was done, what is ahead is booked.
    const state: AppointmentStatus = given ?? (starts < ctx.now ? 'completed' : 'booked');
    return {
      external_id,
      customer_id: customer as string,
      service_id: svc.id,
      staff_id: staffId as string,
      starts_at: starts.toISOString(),
      ends_at: ends.toISOString(),
      status: state,
      price_cents: price ?? svc.priceCents,
      // A cancellation's own time is not in exports: no later than the appointment it cancelled.
      cancelled_at: state === 'cancelled' ? new Date(Math.min(starts.getTime(), ctx.now.getTime())).toISOString() : null,
    };
  },
  write(tx, rows, ctx) {
    return upsert(
      tx,
      'appointments',
      `insert into public.appointments as t (workspace_id, external_id, customer_id, service_id, staff_id, starts_at, ends_at, status, price_cents, cancelled_at)
       select $1, r.external_id, r.customer_id, r.service_id, r.staff_id, r.starts_at, r.ends_at, r.status, r.price_cents, r.cancelled_at
         from jsonb_to_recordset($2::jsonb)
           as r(external_id text, customer_id uuid, service_id uuid, staff_id uuid, starts_at timestamptz, ends_at timestamptz, status text, price_cents integer, cancelled_at timestamptz)
       on conflict (workspace_id, external_id) ${updateChanged([
         ...(['customer_id', 'service_id', 'staff_id', 'starts_at', 'ends_at', 'status', 'price_cents'] as const).map((c): [string, string] => [c, `excluded.${c}`]),
         ['cancelled_at', `case when excluded.status = 'cancelled' then coalesce(t.cancelled_at, excluded.cancelled_at) end`],
       ])}
       returning (xmax = 0) as inserted`,
      rows,
      ctx.workspaceId,
    );
  },
};

function firstMapped(ctx: ImportContext, fields: ImportField[]): ImportField {
  return fields.find((f) => mapped(ctx, f)) ?? fields[0]!;
}

export const IMPORTERS: Record<ImportTable, TableImporter> = { customers, services, staff, appointments };
