import { z } from 'zod';
import type { Tx } from '@/lib/db';
import { STALE_DEAL_DAYS } from '@/lib/planets';
import { dealScriptIn } from '@/lib/sales';
import { contactOf, DAY, iso, MESSAGE_MAX } from './contact';
import { composeMessage, dealTopic, firstName } from './messages';
import { queueMessage } from './outbox';
import type { ActionDefinition } from './types';

export const FOLLOW_UP_PROPOSAL_DAYS = 3;

export const dealFollowUpInput = z.object({
  dealId: z.uuid().describe('The open deal with no activity for two weeks.'),
  message: z.string().trim().min(1).max(MESSAGE_MAX).optional().describe('The exact text to send; when omitted, drafted from the call script of the deal’s stage (else the standard follow-up).'),
});

interface DealRow {
  id: string;
  title: string;
  status: string;
  value_cents: number;
  last_activity_at: Date;
  stage: string;
  customer_id: string | null;
  name: string | null;
  email: string | null;
  phone: string | null;
  consent_messages: boolean | null;
}

async function loadDeal(tx: Tx, workspaceId: string, dealId: string, lock = false) {
  const [row] = await tx.query<DealRow>(
    `select d.id, d.title, d.status, d.value_cents, d.last_activity_at, s.name as stage, d.customer_id,
            c.name, c.email, c.phone, c.consent_messages
       from public.deals d
       join public.pipeline_stages s on s.workspace_id = d.workspace_id and s.id = d.stage_id
       left join public.customers c on c.workspace_id = d.workspace_id and c.id = d.customer_id
      where d.workspace_id = $1 and d.id = $2${lock ? ' for update of d' : ''}`,
    [workspaceId, dealId],
  );
  return row;
}

/** Writes to the customer of a deal idle for STALE_DEAL_DAYS and counts it as activity on the deal. */
export const dealFollowUp: ActionDefinition<z.infer<typeof dealFollowUpInput>> = {
  type: 'deal_follow_up',

  async prepare(tx, { workspace, now }, input) {
    const d = await loadDeal(tx, workspace.id, input.dealId);
    if (!d) return { ok: false, reason: 'There is no such deal in this workspace.' };
    if (d.status !== 'open') return { ok: false, reason: `The deal is ${d.status}.` };
    const idleDays = Math.floor((now.getTime() - d.last_activity_at.getTime()) / DAY);
    if (idleDays < STALE_DEAL_DAYS) return { ok: false, reason: `The deal had activity ${idleDays} days ago: it is not stale yet.` };
    if (!d.customer_id || !d.name) return { ok: false, reason: 'The deal has no customer to write to.' };
    if (!d.consent_messages) return { ok: false, reason: 'The customer has not agreed to receive messages.' };
    const contact = contactOf(d);
    if (!contact) return { ok: false, reason: 'The customer has neither a phone number nor an email address.' };
    const composed = composeMessage(workspace, 'followUp', { first: firstName(d.name), deal: dealTopic(d.title, d.name) });
    // The owner's call script for the stage says it the way the team says it on the phone, to the customer by first name.
    const script = (await dealScriptIn(tx, workspace.id, d.id, workspace, {
      customer: firstName,
      deal: (title, customer) => (customer ? dealTopic(title, customer) : null) ?? title,
    }))?.script?.slice(0, MESSAGE_MAX) ?? null;
    return {
      ok: true,
      action: {
        type: 'deal_follow_up',
        planet: 'sales',
        args: {
          dealId: d.id,
          customerId: d.customer_id,
          lastActivityAt: iso(d.last_activity_at),
          channel: contact.channel,
          to: contact.to,
          subject: composed.subject,
          message: input.message ?? script ?? composed.body,
        },
        details: { customerName: d.name, dealTitle: d.title, valueCents: d.value_cents, stage: d.stage, idleDays },
        // One follow-up per quiet spell: new activity and two more quiet weeks make a new one.
        dedupeKey: `deal_follow_up:${d.id}:${iso(d.last_activity_at).slice(0, 10)}`,
        expiresAt: new Date(now.getTime() + FOLLOW_UP_PROPOSAL_DAYS * DAY),
      },
    };
  },

  async execute(tx, { workspace, now }, args, decisionId) {
    const d = await loadDeal(tx, workspace.id, String(args.dealId), true);
    if (!d) return { ok: false, error: 'The deal no longer exists.' };
    if (d.status !== 'open') return { ok: false, error: `The deal is ${d.status} now.` };
    if (iso(d.last_activity_at) !== args.lastActivityAt) return { ok: false, error: 'Someone has worked on the deal since.' };
    if (d.customer_id !== args.customerId || !d.consent_messages) return { ok: false, error: 'The deal’s customer or their consent changed.' };
    await tx.query(`update public.deals set last_activity_at = $3 where workspace_id = $1 and id = $2`, [workspace.id, d.id, now.toISOString()]);
    const message = await queueMessage(tx, {
      workspaceId: workspace.id,
      timeZone: workspace.timeZone,
      decisionId,
      customerId: d.customer_id,
      channel: args.channel as 'sms' | 'email',
      recipient: String(args.to),
      recipientName: d.name ?? '',
      subject: String(args.subject ?? ''),
      body: String(args.message),
      now,
    });
    return { ok: true, result: { messageIds: [message.id], touchedAt: now.toISOString(), previousActivityAt: iso(d.last_activity_at) } };
  },

  async undo(tx, { workspace }, args, result) {
    await tx.query(`update public.deals set last_activity_at = $3 where workspace_id = $1 and id = $2 and last_activity_at = $4`, [
      workspace.id,
      args.dealId,
      result.previousActivityAt,
      result.touchedAt,
    ]);
  },
};
