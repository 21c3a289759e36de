import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { z } from 'zod';
import { invalidField, isUuid, managersOnly, notFound, rethrowAsApiError } from '@/lib/api';
import { elevated, withUser, type SessionUser, type Tx } from '@/lib/db';
import { sendEvent } from '@/lib/events';
import { roleIn } from './customers';

/**
 * Erasure, the GDPR right to erasure (docs/customers.md): one transaction that removes a customer from
 * every place that names them, and keeps what the business needs that names no one.
 *
 * - Their row goes; so do their waitlist entries and the leads with their email or phone (the same person
 *   before they became a customer). Their deals stay, without the link.
 * - Their appointments stay, detached (`customer_id` null, `customer_erased_at`), so takings, occupancy,
 *   visit and no-show counts do not change; those still to come are cancelled (no one to expect or
 *   remind), which offers the slot to the waitlist as any cancellation does.
 * - The messages to them keep their channel, state and times, not their recipient, subject or text;
 *   those still queued are cancelled. Proposals about them that wait for an OK expire, and every
 *   decision about them loses its recipient, subject and text.
 * - Every free text that may quote them (below, SCRUBBED) has their name, email and phone replaced by
 *   ERASED: what agents concluded, proposed and were told, chat messages, insights, documents, routines,
 *   topic requests, and the background executor's events and step results.
 *
 * PII aliases are not stored anywhere: an alias is an HMAC of the value under the workspace's key, and the
 * alias → value map lives only in the memory of the run (lib/agent/pii.ts). Once the row is gone the name is
 * no longer among the workspace's known names, so no later run can alias it back to a person.
 *
 * Who: the owner and admins (`managersOnly`, checked here: the elevated statements below write tables no
 * person may write). People's own kind of writes (the customer, waitlist, leads, deals) run under RLS,
 * whose delete policies also say admins only.
 */

export const ERASED = '[erased]';

export const eraseCustomerSchema = z.object({
  /** The customer's name, typed again: erasure cannot be undone. */
  confirmName: z.string().max(200),
});

export interface ErasureResult {
  customerId: string;
  erasedAt: Date;
  /** The erasure had already been done (a retry): nothing changed now. */
  alreadyErased: boolean;
  appointmentsKept: number;
  appointmentsCancelled: number;
  messagesErased: number;
}

type ColumnKind = 'text' | 'json' | 'jsonb';

/**
 * Where free text may quote a customer, table by table, and which of its rows are the erasing
 * workspace's (`rows`, a condition on `:workspace`). The background executor's tables are not scoped by a
 * column: its events name their workspace in their data (every event the app sends does), a run carries
 * its event, and a step belongs to its run; runs of no workspace (the crons' fan-outs) carry ids, not
 * people, and another workspace's history is never touched. test/customer-erasure.test.ts fails on a text
 * or JSON column of any table that is neither here nor declared as holding no customer data.
 */
const IN_WORKSPACE = 'workspace_id = :workspace';
const RUN_OF_WORKSPACE = "event -> 'data' ->> 'workspaceId' = :workspace::text";

export const SCRUBBED: Record<string, { rows: string; columns: Record<string, ColumnKind> }> = {
  'public.agent_decisions': { rows: IN_WORKSPACE, columns: { args: 'jsonb', details: 'jsonb', result: 'jsonb', error: 'text' } },
  'public.agent_runs': { rows: IN_WORKSPACE, columns: { outcome: 'jsonb', proposals: 'jsonb', tool_calls: 'json', error: 'text' } },
  'public.artifacts': { rows: IN_WORKSPACE, columns: { title: 'text' } },
  'public.artifact_versions': { rows: IN_WORKSPACE, columns: { title: 'text', content: 'text', note: 'text' } },
  'public.artifact_comments': { rows: IN_WORKSPACE, columns: { body: 'text', quote: 'text' } },
  'public.card_actions': { rows: IN_WORKSPACE, columns: { outcome: 'text' } },
  'public.conversations': { rows: IN_WORKSPACE, columns: { name: 'text' } },
  'public.messages': { rows: IN_WORKSPACE, columns: { body: 'text', payload: 'jsonb', mentions: 'jsonb' } },
  'public.outbox_messages': { rows: IN_WORKSPACE, columns: { recipient: 'text', recipient_name: 'text', subject: 'text', body: 'text', error: 'text' } },
  'public.routines': { rows: IN_WORKSPACE, columns: { name: 'text', instruction: 'text' } },
  'public.routine_runs': { rows: IN_WORKSPACE, columns: { error: 'text' } },
  'public.topics': { rows: IN_WORKSPACE, columns: { summary: 'text', system_prompt: 'text' } },
  'public.topic_requests': { rows: IN_WORKSPACE, columns: { prompt: 'text', result: 'text', error: 'text' } },
  'public.workspace_insights': { rows: IN_WORKSPACE, columns: { title: 'text', body: 'text', params: 'jsonb' } },
  'private.analysis_days': { rows: IN_WORKSPACE, columns: { outcome: 'jsonb' } },
  'private.deliveries': { rows: IN_WORKSPACE, columns: { outcome: 'text' } },
  'private.executor_events': { rows: "data ->> 'workspaceId' = :workspace::text", columns: { data: 'jsonb' } },
  'private.executor_runs': { rows: RUN_OF_WORKSPACE, columns: { event: 'jsonb', output: 'jsonb', error: 'text' } },
  'private.executor_steps': { rows: `run_id in (select id from private.executor_runs where ${RUN_OF_WORKSPACE})`, columns: { output: 'jsonb', error: 'text' } },
};

/**
 * The tables whose rows erasure deletes or rewrites by the customer's id or contact (above), whose
 * personal columns are therefore handled row by row rather than by pattern.
 */
export const ERASED_BY_ROW: Record<string, string> = {
  'public.customers': 'the row is deleted',
  'public.leads': 'leads with the same email or phone are deleted',
  'public.waitlist_entries': 'deleted with the customer',
  'public.deals': 'unlinked; the title has the name replaced',
  'public.appointments': 'kept, detached from the customer',
};

interface CustomerRow {
  id: string;
  name: string;
  email: string | null;
  phone: string | null;
}

/**
 * Erases a customer everywhere (see above), after `confirmName` matched their name. Idempotent: erasing
 * again answers with the first erasure. The owner and admins only (403 for a member, 404 for a stranger).
 */
export async function eraseCustomer(
  user: SessionUser,
  workspaceId: string,
  customerId: string,
  input: z.infer<typeof eraseCustomerSchema>,
  now = new Date(),
): Promise<ErasureResult> {
  if (!isUuid(workspaceId)) throw notFound('workspace');
  if (!isUuid(customerId)) throw notFound('customer');
  return withUser(user, async (tx) => {
    if ((await roleIn(tx, user, workspaceId)) === 'member') throw managersOnly('eraseCustomers');
    const [customer] = await tx.query<CustomerRow>(
      `select id, name, email, phone from public.customers where workspace_id = $1 and id = $2 for update`,
      [workspaceId, customerId],
    );
    if (!customer) return previousErasure(tx, workspaceId, customerId);
    if (nameKey(input.confirmName) !== nameKey(customer.name)) throw invalidField('confirmName', 'api.customers.confirmName');
    return erase(tx, user, workspaceId, customer, now);
  }).catch(rethrowAsApiError);
}

async function previousErasure(tx: Tx, workspaceId: string, customerId: string): Promise<ErasureResult> {
  const [done] = await elevated(tx, (s) =>
    s.query<{ erased_at: Date }>(`select erased_at from private.customer_erasures where workspace_id = $1 and customer_id = $2`, [workspaceId, customerId]),
  );
  if (!done) throw notFound('customer');
  return { customerId, erasedAt: done.erased_at, alreadyErased: true, appointmentsKept: 0, appointmentsCancelled: 0, messagesErased: 0 };
}

async function erase(tx: Tx, user: SessionUser, workspaceId: string, customer: CustomerRow, now: Date): Promise<ErasureResult> {
  const text = personPattern(customer, (s) => s);
  // Inside JSON's text a value is written JSON-escaped, and may follow an escape such as \n.
  const json = personPattern(customer, (s) => JSON.stringify(s).slice(1, -1), '(?:(?<=\\\\[nrtbf])|(?<![[:alnum:]_]))');
  const at = now.toISOString();

  const done = await elevated(tx, async (s) => {
    await s.query(`insert into private.customer_erasures (workspace_id, customer_id, erased_by, erased_at) values ($1, $2, $3, $4)`, [
      workspaceId,
      customer.id,
      user.id,
      at,
    ]);
    const appointments = await s.query<{ id: string; cancelled: boolean }>(
      `update public.appointments a
          set customer_id = null, customer_erased_at = $3,
              status = case when a.status in ('booked', 'confirmed') and a.starts_at > $3 then 'cancelled' else a.status end,
              cancelled_at = case when a.status in ('booked', 'confirmed') and a.starts_at > $3 then $3 else a.cancelled_at end
        where a.workspace_id = $1 and a.customer_id = $2
        returning a.id, a.status = 'cancelled' and a.cancelled_at = $3 as cancelled`,
      [workspaceId, customer.id, at],
    );
    const messages = await s.query<{ id: string }>(
      `update public.outbox_messages
          set status = case when status = 'queued' then 'cancelled' else status end,
              cancelled_at = case when status = 'queued' then $3::timestamptz else cancelled_at end,
              error = case when status = 'queued' then 'Cancelled: the customer was erased.' else error end,
              recipient = $4, recipient_name = '', subject = '', body = $4
        where workspace_id = $1 and (customer_id = $2 or recipient = any ($5::text[]))
        returning id`,
      [workspaceId, customer.id, at, ERASED, [customer.email, customer.phone].filter(Boolean)],
    );
    await s.query(
      `update public.agent_decisions set status = 'expired'
        where workspace_id = $1 and status in ('proposed', 'approved') and (args ->> 'customerId' = $2 or args::text ~ $3)`,
      [workspaceId, customer.id, json],
    );
    // The text written to them greets them by first name ("Ciao Maria"), which no pattern of the full name finds.
    await s.query(
      `update public.agent_decisions
          set args = (select jsonb_object_agg(key, case when key in ('to', 'subject', 'message') then to_jsonb($3::text) else value end) from jsonb_each(args))
        where workspace_id = $1 and args ->> 'customerId' = $2 and jsonb_typeof(args) = 'object'`,
      [workspaceId, customer.id, ERASED],
    );
    // Their conversation (what they wrote and what was answered, lib/inbound), and one kept for their
    // address before they were recorded; the customer_conversations rows go with it.
    await s.query(
      `delete from public.conversations where workspace_id = $1 and id in (
         select conversation_id from public.customer_conversations
          where workspace_id = $1
            and (customer_id = $2 or (customer_id is null and (email = lower($3) or ($4 <> '' and right(regexp_replace(coalesce(phone, ''), '\\D', '', 'g'), length($4)) = $4)))))`,
      [workspaceId, customer.id, customer.email ?? '', digitsOf(customer.phone)],
    );
    for (const [table, { rows, columns }] of Object.entries(SCRUBBED)) await scrub(s, table, rows, columns, workspaceId, text, json);
    return { appointments, messages };
  });

  // What people may do themselves, as the person erasing (RLS: deletes are for admins).
  await tx.query(`delete from public.waitlist_entries where workspace_id = $1 and customer_id = $2`, [workspaceId, customer.id]);
  await tx.query(
    `update public.deals set customer_id = null, title = regexp_replace(title, $3, $4, 'g')
      where workspace_id = $1 and (customer_id = $2 or title ~ $3)`,
    [workspaceId, customer.id, text, ERASED],
  );
  await tx.query(
    `delete from public.leads
      where workspace_id = $1
        and (lower(email) = lower($2) or ($3 <> '' and regexp_replace(coalesce(phone, ''), '\\D', '', 'g') = $3))`,
    [workspaceId, customer.email, digitsOf(customer.phone)],
  );
  const deleted = await tx.query(`delete from public.customers where workspace_id = $1 and id = $2 returning id`, [workspaceId, customer.id]);
  if (deleted.length === 0) throw managersOnly('eraseCustomers');

  const cancelled = done.appointments.filter((a) => a.cancelled);
  if (cancelled.length) await sendEvent(cancelled.map((a) => ({ name: 'booking/cancelled' as const, data: { workspaceId, appointmentId: a.id } })), tx);
  return {
    customerId: customer.id,
    erasedAt: now,
    alreadyErased: false,
    appointmentsKept: done.appointments.length,
    appointmentsCancelled: cancelled.length,
    messagesErased: done.messages.length,
  };
}

/** Replaces every match of the person's pattern in the table's columns with ERASED. */
async function scrub(tx: Tx, table: string, rows: string, columns: Record<string, ColumnKind>, workspaceId: string, text: string, json: string) {
  const params: unknown[] = [ERASED];
  const param = (value: unknown) => `$${params.push(value)}`;
  // Postgres refuses a parameter a statement never mentions, so each pattern is added where it is used.
  const patterns: Partial<Record<'text' | 'json', string>> = {};
  const patternFor = (kind: ColumnKind) => (kind === 'text' ? (patterns.text ??= param(text)) : (patterns.json ??= param(json)));
  const entries = Object.entries(columns).map(([column, kind]) => ({ column, kind, value: kind === 'text' ? column : `${column}::text`, pattern: patternFor(kind) }));
  const sets = entries.map(({ column, kind, value, pattern }) => {
    const replaced = `regexp_replace(${value}, ${pattern}, $1, 'g')`;
    return `${column} = ${kind === 'text' ? replaced : `${replaced}::${kind}`}`;
  });
  const matches = entries.map(({ value, pattern }) => `${value} ~ ${pattern}`);
  const workspace = param(workspaceId);
  await tx.query(`update ${table} set ${sets.join(', ')} where ${rows.replaceAll(':workspace', workspace)} and (${matches.join(' or ')})`, params);
}

/** The same name however it is spaced or capitalized. */
const nameKey = (name: string) => name.trim().replace(/\s+/g, ' ').toLowerCase();

const digitsOf = (phone: string | null) => (phone ?? '').replace(/\D/g, '');

const NAME_MIN_LENGTH = 3;

/** Between two digits of a phone number as people write it. */
const PHONE_SEPARATOR = '[\\s.()/-]{0,2}';

/**
 * One Postgres regular expression matching the person's name, email and phone as they may be written in
 * text (`encode`: as plain text, or JSON-escaped inside JSON's text):
 * - the name as recorded, any spacing, in any case when it has two words or more (a one-word name only as
 *   recorded or in capitals: "Sole" must not take "sole" with it), and not inside a longer word;
 * - the email in any case;
 * - the phone's digits with the separators people put between them, with or without its country code.
 * Surnames alone and initials ("Rossi", "Maria R.") are not matched: other people share them. Nor are
 * names shorter than three characters (as lib/agent's aliases): they would take ordinary words with them.
 */
export function personPattern(customer: { name: string; email: string | null; phone: string | null }, encode: (s: string) => string, before = '(?<![[:alnum:]_])'): string {
  const after = '(?![[:alnum:]_])';
  const alternatives: string[] = [];
  const words = customer.name.trim().length >= NAME_MIN_LENGTH ? encode(customer.name.trim()).split(/\s+/).filter(Boolean) : [];
  if (words.length > 1) alternatives.push(`${before}${words.map(anyCase).join('\\s+')}${after}`);
  else if (words.length === 1) alternatives.push(`${before}(?:${escape(words[0]!)}|${escape(words[0]!.toUpperCase())})${after}`);
  if (customer.email) alternatives.push(anyCase(encode(customer.email)));
  const phone = phonePattern(customer.phone);
  if (phone) alternatives.push(`(?<![0-9])${phone}(?![0-9])`);
  return alternatives.map((a) => `(?:${a})`).join('|');
}

function phonePattern(phone: string | null): string | undefined {
  const digits = digitsOf(phone);
  if (digits.length < 5) return undefined;
  const spaced = (d: string) => [...d].join(PHONE_SEPARATOR);
  const parsed = parsePhoneNumberFromString(phone!.startsWith('+') ? phone! : `+${digits}`);
  if (parsed?.isPossible() && parsed.nationalNumber) {
    return `(?:(?:\\+|00)${PHONE_SEPARATOR}${spaced(parsed.countryCallingCode)}${PHONE_SEPARATOR})?${spaced(parsed.nationalNumber)}`;
  }
  return `(?:\\+${PHONE_SEPARATOR})?${spaced(digits)}`;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `s` as a pattern that matches it in any case, letter by letter. */
function anyCase(s: string): string {
  return [...s]
    .map((ch) => {
      const lower = ch.toLowerCase();
      const upper = ch.toUpperCase();
      return lower !== upper && lower.length === 1 && upper.length === 1 ? `[${lower}${upper}]` : escape(ch);
    })
    .join('');
}
