import 'server-only';
import { stringify } from 'csv-stringify';
import { withUser, type SessionUser } from '@/lib/db';
import type { ImportTable } from './fields';

/**
 * The same tables as CSV, with headers an import reads back unchanged (export, edit in a spreadsheet,
 * import again: every row is updated, not copied). A row made here has no external id: its own id
 * stands in, and the import adopts it as the row's external id. UTF-8 with a byte-order mark, so Excel opens
 * accented names correctly; times are ISO instants with their offset; prices in units ("25.00").
 * Rows are read in pages of PAGE_ROWS as the person (RLS), so a large table is never one array.
 */
const PAGE_ROWS = 2000;

const EXPORTS: Record<ImportTable, { columns: string[]; select: string }> = {
  customers: {
    columns: ['external_id', 'name', 'email', 'phone', 'consent_marketing', 'consent_messages', 'vip', 'visit_count', 'last_visit_at'],
    select: `select c.id, coalesce(c.external_id, c.id::text) as external_id, c.name, c.email, c.phone, c.consent_marketing, c.consent_messages, c.vip, c.visit_count, c.last_visit_at
               from public.customers c where c.workspace_id = $1 and c.id > $2 order by c.id limit $3`,
  },
  services: {
    columns: ['external_id', 'name', 'category', 'duration_minutes', 'price'],
    select: `select s.id, coalesce(s.external_id, s.id::text) as external_id, s.name, s.category, s.duration_minutes, to_char(s.price_cents / 100.0, 'FM999999990.00') as price
               from public.services s where s.workspace_id = $1 and s.id > $2 order by s.id limit $3`,
  },
  staff: {
    columns: ['external_id', 'name', 'active'],
    select: `select s.id, coalesce(s.external_id, s.id::text) as external_id, s.name, s.active from public.staff s where s.workspace_id = $1 and s.id > $2 order by s.id limit $3`,
  },
  appointments: {
    columns: [
      'external_id',
      'starts_at',
      'ends_at',
      'status',
      'price',
      'customer_external_id',
      'customer_email',
      'customer_name',
      'service_external_id',
      'service_name',
      'staff_external_id',
      'staff_name',
    ],
    select: `select a.id, coalesce(a.external_id, a.id::text) as external_id, a.starts_at, a.ends_at, a.status, to_char(a.price_cents / 100.0, 'FM999999990.00') as price,
                    coalesce(c.external_id, c.id::text) as customer_external_id, c.email as customer_email, c.name as customer_name,
                    coalesce(s.external_id, s.id::text) as service_external_id, s.name as service_name, coalesce(st.external_id, st.id::text) as staff_external_id, st.name as staff_name
               from public.appointments a
               join public.customers c on c.workspace_id = a.workspace_id and c.id = a.customer_id
               join public.services s on s.workspace_id = a.workspace_id and s.id = a.service_id
               join public.staff st on st.workspace_id = a.workspace_id and st.id = a.staff_id
              where a.workspace_id = $1 and a.id > $2 order by a.id limit $3`,
  },
};

/** The table as a stream of CSV text; the caller has checked that `user` may export it. */
export function exportCsv(user: SessionUser, workspaceId: string, table: ImportTable): ReadableStream<Uint8Array> {
  const { columns, select } = EXPORTS[table];
  const encoder = new TextEncoder();
  const csv = stringify({
    header: true,
    columns,
    bom: true,
    cast: { date: (value) => value.toISOString(), boolean: (value) => (value ? 'yes' : 'no') },
  });
  let after = '00000000-0000-0000-0000-000000000000';
  let finished = false;
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      csv.on('data', (chunk: Buffer | string) => controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : new Uint8Array(chunk)));
      csv.on('error', (error) => controller.error(error));
      csv.on('end', () => controller.close());
    },
    async pull(controller) {
      if (finished) return;
      try {
        const rows = await withUser(user, (tx) => tx.query<Record<string, unknown> & { id: string }>(select, [workspaceId, after, PAGE_ROWS]));
        for (const row of rows) csv.write(row);
        if (rows.length < PAGE_ROWS) {
          finished = true;
          csv.end();
        } else after = rows.at(-1)!.id;
      } catch (error) {
        controller.error(error);
      }
    },
  });
}
