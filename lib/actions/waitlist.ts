import { z } from 'zod';
import type { Tx } from '@/lib/db';
import { contactOf, HOUR, iso, MESSAGE_MAX } from './contact';
import { composeMessage, firstName, formatWhen } from './messages';
import { queueMessage } from './outbox';
import type { ActionDefinition } from './types';

export const waitlistOfferInput = z.object({
  appointmentId: z.uuid().describe('The cancelled appointment whose slot is free again.'),
  message: z.string().trim().min(1).max(MESSAGE_MAX).optional().describe('The exact text to send; the standard offer when omitted.'),
});

interface SlotRow {
  id: string;
  starts_at: Date;
  ends_at: Date;
  service_id: string;
  staff_id: string;
  status: string;
  service: string;
  taken: boolean;
}

interface EntryRow {
  id: string;
  customer_id: string;
  name: string;
  email: string | null;
  phone: string | null;
  created_at: Date;
}

/** The freed slot, and whether another appointment has taken it since (same stylist, overlapping). */
async function loadSlot(tx: Tx, workspaceId: string, appointmentId: string): Promise<SlotRow | undefined> {
  const [row] = await tx.query<SlotRow>(
    `select a.id, a.starts_at, a.ends_at, a.service_id, a.staff_id, a.status, s.name as service,
            exists (select 1 from public.appointments o
                     where o.workspace_id = a.workspace_id and o.staff_id = a.staff_id and o.status <> 'cancelled'
                       and o.starts_at < a.ends_at and o.ends_at > a.starts_at) as taken
       from public.appointments a
       join public.services s on s.workspace_id = a.workspace_id and s.id = a.service_id
      where a.workspace_id = $1 and a.id = $2`,
    [workspaceId, appointmentId],
  );
  return row;
}

/**
 * The waitlist entries a freed slot may go to: waiting, same service, a window that holds the whole
 * slot, not yet notified, with consent and a way to reach them; first come, first served.
 */
async function eligibleEntries(tx: Tx, workspaceId: string, slot: SlotRow, entryId?: string): Promise<EntryRow[]> {
  return tx.query<EntryRow>(
    `select w.id, w.customer_id, c.name, c.email, c.phone, w.created_at
       from public.waitlist_entries w
       join public.customers c on c.workspace_id = w.workspace_id and c.id = w.customer_id
      where w.workspace_id = $1 and w.status = 'waiting' and w.notified_at is null and w.service_id = $2
        and w.window_start <= $3 and w.window_end >= $4
        and c.consent_messages and (c.phone is not null or c.email is not null)
        and ($5::uuid is null or w.id = $5)
      order by w.created_at, w.id
      limit 1`,
    [workspaceId, slot.service_id, slot.starts_at.toISOString(), slot.ends_at.toISOString(), entryId ?? null],
  );
}

/** Offers a freed slot to the first waiting customer whose window fits it. */
export const waitlistOffer: ActionDefinition<z.infer<typeof waitlistOfferInput>> = {
  type: 'waitlist_offer',

  async prepare(tx, { workspace, now }, input) {
    const slot = await loadSlot(tx, workspace.id, input.appointmentId);
    if (!slot) return { ok: false, reason: 'There is no such appointment in this workspace.' };
    if (slot.status !== 'cancelled') return { ok: false, reason: 'That appointment was not cancelled, so its slot is not free.' };
    if (slot.starts_at.getTime() - 2 * HOUR <= now.getTime()) return { ok: false, reason: 'The slot starts too soon to offer it.' };
    if (slot.taken) return { ok: false, reason: 'The slot has been booked again already.' };
    const [entry] = await eligibleEntries(tx, workspace.id, slot);
    if (!entry) return { ok: false, reason: 'Nobody on the waitlist wants this service at this time.' };
    const contact = contactOf(entry)!;
    const composed = composeMessage(workspace, 'waitlist', { first: firstName(entry.name), when: formatWhen(workspace, slot.starts_at), service: slot.service });
    return {
      ok: true,
      action: {
        type: 'waitlist_offer',
        planet: 'booking',
        args: {
          appointmentId: slot.id,
          startsAt: iso(slot.starts_at),
          endsAt: iso(slot.ends_at),
          staffId: slot.staff_id,
          serviceId: slot.service_id,
          waitlistEntryId: entry.id,
          customerId: entry.customer_id,
          channel: contact.channel,
          to: contact.to,
          subject: composed.subject,
          message: input.message ?? composed.body,
        },
        details: { customerName: entry.name, serviceName: slot.service, startsAt: iso(slot.starts_at), waitingSince: iso(entry.created_at) },
        // One offer per freed slot, however often the analysis looks at it.
        dedupeKey: `waitlist_offer:${slot.id}`,
        expiresAt: new Date(slot.starts_at.getTime() - 2 * HOUR),
      },
    };
  },

  async execute(tx, { workspace, now }, args, decisionId) {
    const slot = await loadSlot(tx, workspace.id, String(args.appointmentId));
    if (!slot || slot.status !== 'cancelled') return { ok: false, error: 'The slot is no longer free.' };
    if (slot.taken) return { ok: false, error: 'The slot has been booked again already.' };
    const [entry] = await eligibleEntries(tx, workspace.id, slot, String(args.waitlistEntryId));
    if (!entry) return { ok: false, error: 'The waitlist entry was taken off the list or no longer fits the slot.' };
    const marked = await tx.query(
      `update public.waitlist_entries set status = 'offered', notified_at = $3
        where workspace_id = $1 and id = $2 and status = 'waiting' and notified_at is null returning 1`,
      [workspace.id, entry.id, now.toISOString()],
    );
    if (marked.length === 0) return { ok: false, error: 'The waitlist entry changed meanwhile.' };
    const message = await queueMessage(tx, {
      workspaceId: workspace.id,
      timeZone: workspace.timeZone,
      decisionId,
      customerId: entry.customer_id,
      channel: args.channel as 'sms' | 'email',
      recipient: String(args.to),
      recipientName: entry.name,
      subject: String(args.subject ?? ''),
      body: String(args.message),
      now,
    });
    return { ok: true, result: { messageIds: [message.id], notifiedAt: now.toISOString() } };
  },

  async undo(tx, { workspace }, args, result) {
    await tx.query(
      `update public.waitlist_entries set status = 'waiting', notified_at = null
        where workspace_id = $1 and id = $2 and status = 'offered' and notified_at = $3`,
      [workspace.id, args.waitlistEntryId, result.notifiedAt],
    );
  },
};
