import { z } from 'zod';
import type { Tx } from '@/lib/db';
import { LAPSE_GRACE, LAPSE_MIN_VISITS } from '@/lib/planets';
import { contactOf, DAY, iso, MESSAGE_MAX } from './contact';
import { composeMessage, firstName } from './messages';
import { queueMessage } from './outbox';
import type { ActionDefinition, ActionWorkspace } from './types';

/**
 * At most this many win-back messages a day per workspace (proposed or sent): a salon writing to
 * dozens of old clients on one morning reads as spam, and replies need someone to answer them.
 */
export const WIN_BACK_DAILY_CAP = 5;
/** How long a win-back proposal waits for an OK. */
export const WIN_BACK_PROPOSAL_DAYS = 3;

export const winBackInput = z.object({
  customerId: z.uuid().describe('The lapsed customer to invite back.'),
  message: z.string().trim().min(1).max(MESSAGE_MAX).optional().describe('The exact text to send; the standard invitation when omitted.'),
});

interface CustomerRow {
  id: string;
  name: string;
  email: string | null;
  phone: string | null;
  consent_marketing: boolean;
  vip: boolean;
  visit_count: number;
  last_visit_at: Date | null;
  gap_days: number | null;
  booked_ahead: boolean;
  last_service: string | null;
}

async function loadCustomer(tx: Tx, workspaceId: string, customerId: string, now: Date) {
  const [row] = await tx.query<CustomerRow>(
    `select c.id, c.name, c.email, c.phone, c.consent_marketing, c.vip, c.visit_count, c.last_visit_at,
            case when c.visit_count >= 2
                 then date_part('epoch', c.last_visit_at - c.first_visit_at) / 86400 / (c.visit_count - 1) end as gap_days,
            exists (select 1 from public.appointments a
                     where a.workspace_id = c.workspace_id and a.customer_id = c.id and a.starts_at >= $3
                       and a.status in ('booked', 'confirmed')) as booked_ahead,
            (select s.name from public.appointments a join public.services s on s.workspace_id = a.workspace_id and s.id = a.service_id
              where a.workspace_id = c.workspace_id and a.customer_id = c.id and a.status = 'completed'
              order by a.starts_at desc limit 1) as last_service
       from public.customers c where c.workspace_id = $1 and c.id = $2`,
    [workspaceId, customerId, now.toISOString()],
  );
  return row;
}

/** Why this customer may not be written to now, or null when they may. Lapsed as lib/planets defines it. */
function notLapsed(c: CustomerRow, now: Date): string | null {
  if (c.visit_count < LAPSE_MIN_VISITS || c.gap_days === null || !c.last_visit_at) {
    return `The customer has fewer than ${LAPSE_MIN_VISITS} visits, so there is no usual gap to be late against.`;
  }
  const daysSince = (now.getTime() - c.last_visit_at.getTime()) / DAY;
  if (daysSince <= c.gap_days * LAPSE_GRACE) return 'The customer is not past their usual gap between visits.';
  if (c.booked_ahead) return 'The customer already has an appointment booked.';
  return null;
}

/** Win-back messages proposed or executed today (local) in the workspace. */
async function usedToday(tx: Tx, workspace: ActionWorkspace, now: Date, column: 'created_at' | 'executed_at'): Promise<number> {
  const [row] = await tx.query<{ n: number }>(
    `select count(*)::int as n from public.agent_decisions
      where workspace_id = $1 and action_type = 'win_back' and ${column} >= date_trunc('day', $2::timestamptz at time zone $3) at time zone $3
        and status not in ('rejected', 'expired', 'undone')`,
    [workspace.id, now.toISOString(), workspace.timeZone],
  );
  return row!.n;
}

/** Invites back a customer who is past their own usual gap between visits (marketing consent, no VIPs). */
export const winBack: ActionDefinition<z.infer<typeof winBackInput>> = {
  type: 'win_back',

  async prepare(tx, { workspace, now }, input) {
    const c = await loadCustomer(tx, workspace.id, input.customerId, now);
    if (!c) return { ok: false, reason: 'There is no such customer in this workspace.' };
    const why = notLapsed(c, now);
    if (why) return { ok: false, reason: why };
    if (!c.consent_marketing) return { ok: false, reason: 'The customer has not agreed to marketing messages.' };
    // VIPs get a personal call from the owner, not an automated message (as OpenChair does).
    if (c.vip) return { ok: false, reason: 'The customer is a VIP: the owner contacts VIPs personally.' };
    const contact = contactOf(c);
    if (!contact) return { ok: false, reason: 'The customer has neither a phone number nor an email address.' };
    if ((await usedToday(tx, workspace, now, 'created_at')) >= WIN_BACK_DAILY_CAP) {
      return { ok: false, reason: `Today's cap of ${WIN_BACK_DAILY_CAP} win-back messages is reached.` };
    }
    const composed = composeMessage(workspace, 'winBack', { first: firstName(c.name), service: c.last_service?.toLowerCase() ?? null });
    const lastVisit = c.last_visit_at!;
    return {
      ok: true,
      action: {
        type: 'win_back',
        planet: 'crm',
        args: {
          customerId: c.id,
          lastVisitAt: iso(lastVisit),
          channel: contact.channel,
          to: contact.to,
          subject: composed.subject,
          message: input.message ?? composed.body,
        },
        details: {
          customerName: c.name,
          usualGapDays: Math.round(c.gap_days!),
          daysSince: Math.floor((now.getTime() - lastVisit.getTime()) / DAY),
          lastService: c.last_service,
          visits: c.visit_count,
        },
        // One invitation per lapse: a customer who comes back and lapses again gets a new one.
        dedupeKey: `win_back:${c.id}:${iso(lastVisit).slice(0, 10)}`,
        expiresAt: new Date(now.getTime() + WIN_BACK_PROPOSAL_DAYS * DAY),
      },
    };
  },

  async execute(tx, { workspace, now }, args, decisionId) {
    const c = await loadCustomer(tx, workspace.id, String(args.customerId), now);
    if (!c) return { ok: false, error: 'The customer no longer exists.' };
    if (!c.last_visit_at || iso(c.last_visit_at) !== args.lastVisitAt) return { ok: false, error: 'The customer has visited since.' };
    const why = notLapsed(c, now);
    if (why) return { ok: false, error: why };
    if (!c.consent_marketing) return { ok: false, error: 'The customer withdrew consent to marketing messages.' };
    if ((await usedToday(tx, workspace, now, 'executed_at')) >= WIN_BACK_DAILY_CAP) {
      return { ok: false, error: `Today's cap of ${WIN_BACK_DAILY_CAP} win-back messages is reached.` };
    }
    const message = await queueMessage(tx, {
      workspaceId: workspace.id,
      timeZone: workspace.timeZone,
      decisionId,
      customerId: c.id,
      channel: args.channel as 'sms' | 'email',
      recipient: String(args.to),
      recipientName: c.name,
      subject: String(args.subject ?? ''),
      body: String(args.message),
      now,
    });
    return { ok: true, result: { messageIds: [message.id] } };
  },

  async undo() {
    // Nothing but the message, which the caller cancels.
  },
};
