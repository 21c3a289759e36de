import { composeMessage, firstName, formatWhen, hashArgs, loadActionWorkspace, type ActionType, type ActionWorkspace } from '@/lib/actions';
import { submitAction } from '@/lib/autonomy';
import type { Tx } from '@/lib/db';
import type { DemoContext } from '@/lib/demo';
import { analyzeWithRules } from '@/lib/insights';
import { PLANETS } from '@/lib/planets';

const HOUR = 3_600_000;

/**
 * Studio Aurora's Home on first start, on any day of the week: a short history (three reminders the
 * owner approved, after which they let reminders run on their own; two win-back messages approved
 * last week), then this morning's analysis run for real at seed time — reminders prepared
 * automatically, waitlist offers, win-backs and follow-ups waiting for an OK. When no appointment is
 * due for a reminder in the next day (the salon is closed Sunday and Monday), the next few are reminded
 * ahead, so "Done for you" is never empty. No SMS or email provider is connected, so every message is
 * still in the outbox, queued, as in any install today. Runs inside seedDemo's transaction, after the
 * planet data.
 */
export async function seedHomeDemo(tx: Tx, demo: DemoContext): Promise<void> {
  const { now } = demo;
  const workspace = (await loadActionWorkspace(tx, demo.workspaceId))!;
  await seedHistory(tx, workspace, demo.ownerId, now);

  const [{ today }] = (await tx.query<{ today: string }>(`select to_char(($1::timestamptz at time zone $2)::date, 'YYYY-MM-DD') as today`, [
    now.toISOString(),
    workspace.timeZone,
  ])) as [{ today: string }];
  for (const planet of PLANETS) {
    await analyzeWithRules(tx, { workspaceId: workspace.id, planet, localDate: today }, now);
    await tx.query(
      `insert into private.analysis_days (workspace_id, local_date, planet, claimed_at, finished_at) values ($1, $2::date, $3, $4, $4)
       on conflict do nothing`,
      [workspace.id, today, planet, now.toISOString()],
    );
  }

  const [{ n }] = (await tx.query<{ n: number }>(
    `select count(*)::int as n from public.agent_decisions where workspace_id = $1 and action_type = 'booking_reminder' and status = 'executed' and executed_at >= $2`,
    [workspace.id, now.toISOString()],
  )) as [{ n: number }];
  if (n > 0) return;
  const upcoming = await tx.query<{ id: string }>(
    `select a.id from public.appointments a join public.customers c on c.workspace_id = a.workspace_id and c.id = a.customer_id
      where a.workspace_id = $1 and a.status in ('booked', 'confirmed') and a.reminder_sent_at is null and a.starts_at > $2 and c.consent_messages
      order by a.starts_at limit 4`,
    [workspace.id, new Date(now.getTime() + 2 * HOUR).toISOString()],
  );
  for (const { id } of upcoming) {
    await submitAction(tx, { workspaceId: workspace.id, type: 'booking_reminder', input: { appointmentId: id }, trigger: 'cron:analyze_planet_data', now });
  }
}

/** Past approvals: executed decisions with their (queued) messages, and the owner's "yes, automatically" for reminders. */
async function seedHistory(tx: Tx, workspace: ActionWorkspace, ownerId: string, now: Date) {
  const past = await tx.query<{ id: string; starts_at: Date; customer_id: string; name: string; phone: string | null; email: string | null; service: string }>(
    `select a.id, a.starts_at, a.customer_id, c.name, c.phone, c.email, s.name as service
       from public.appointments a
       join public.customers c on c.workspace_id = a.workspace_id and c.id = a.customer_id
       join public.services s on s.workspace_id = a.workspace_id and s.id = a.service_id
      where a.workspace_id = $1 and a.status = 'completed' and a.starts_at between $2 and $3 and c.consent_messages
        and (c.phone is not null or c.email is not null)
      order by a.starts_at limit 3`,
    [workspace.id, new Date(now.getTime() - 6 * 24 * HOUR).toISOString(), new Date(now.getTime() - 2 * 24 * HOUR).toISOString()],
  );
  for (const a of past) {
    const composed = composeMessage(workspace, 'reminder', { first: firstName(a.name), when: formatWhen(workspace, a.starts_at), service: a.service });
    const approvedAt = new Date(a.starts_at.getTime() - 24 * HOUR);
    await pastDecision(tx, workspace, ownerId, 'booking_reminder', {
      args: { appointmentId: a.id, startsAt: a.starts_at.toISOString(), customerId: a.customer_id, ...contact(a), subject: composed.subject, message: composed.body },
      details: { customerName: a.name, serviceName: a.service, startsAt: a.starts_at.toISOString() },
      dedupeKey: `booking_reminder:${a.id}`,
      customerId: a.customer_id,
      name: a.name,
      at: approvedAt,
      // What the reminder's execution leaves (lib/actions/reminder.ts), so its undo finds its own mark.
      result: { reminderSentAt: approvedAt.toISOString() },
    });
    await tx.query(`update public.appointments set reminder_sent_at = $3 where workspace_id = $1 and id = $2`, [workspace.id, a.id, approvedAt.toISOString()]);
  }
  await tx.query(
    `insert into public.workspace_action_autonomy (workspace_id, action_type, auto, updated_by, updated_at)
     values ($1, 'booking_reminder', true, $2, $3)`,
    [workspace.id, ownerId, new Date(now.getTime() - 2 * 24 * HOUR).toISOString()],
  );

  // Two customers written to last week who have been back since: one more approval of a win-back
  // brings the "do this automatically?" suggestion.
  const returned = await tx.query<{ id: string; name: string; phone: string | null; email: string | null; last_visit_at: Date }>(
    `select id, name, phone, email, last_visit_at from public.customers
      where workspace_id = $1 and consent_marketing and not vip and visit_count >= 3 and (phone is not null or email is not null)
        and last_visit_at > $2
      order by last_visit_at desc limit 2`,
    [workspace.id, new Date(now.getTime() - 5 * 24 * HOUR).toISOString()],
  );
  for (const [i, c] of returned.entries()) {
    const at = new Date(now.getTime() - (8 + i) * 24 * HOUR);
    const earlierVisit = new Date(at.getTime() - 50 * 24 * HOUR).toISOString();
    const composed = composeMessage(workspace, 'winBack', { first: firstName(c.name), service: null });
    await pastDecision(tx, workspace, ownerId, 'win_back', {
      args: { customerId: c.id, lastVisitAt: earlierVisit, ...contact(c), subject: composed.subject, message: composed.body },
      details: { customerName: c.name, usualGapDays: 35, daysSince: 50, lastService: null, visits: 3 },
      dedupeKey: `win_back:${c.id}:${earlierVisit.slice(0, 10)}`,
      customerId: c.id,
      name: c.name,
      at,
    });
  }
}

const contact = (c: { phone: string | null; email: string | null }) => (c.phone ? { channel: 'sms', to: c.phone } : { channel: 'email', to: c.email! });

async function pastDecision(
  tx: Tx,
  workspace: ActionWorkspace,
  ownerId: string,
  type: ActionType,
  d: { args: Record<string, unknown>; details: Record<string, unknown>; dedupeKey: string; customerId: string; name: string; at: Date; result?: Record<string, unknown> },
) {
  const planet = type === 'win_back' ? 'crm' : 'booking';
  const proposedAt = new Date(d.at.getTime() - 2 * HOUR).toISOString();
  const [row] = await tx.query<{ id: string }>(
    `insert into public.agent_decisions
       (workspace_id, planet, action_type, args, args_hash, details, dedupe_key, tier, status, trigger, expires_at, decided_by, decided_at,
        executed_at, result, created_at)
     values ($1, $2, $3, $4::jsonb, $5, $6::jsonb, $7, 'propose', 'executed', 'cron:analyze_planet_data', $8, $9, $10, $10, '{"messageIds": []}', $11)
     returning id`,
    [
      workspace.id, planet, type, JSON.stringify(d.args), hashArgs(type, d.args), JSON.stringify(d.details), d.dedupeKey,
      new Date(d.at.getTime() + 24 * HOUR).toISOString(), ownerId, d.at.toISOString(), proposedAt,
    ],
  );
  const [message] = await tx.query<{ id: string }>(
    `insert into public.outbox_messages (workspace_id, decision_id, customer_id, channel, recipient, recipient_name, subject, body, status, send_after, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, 'queued', $9, $9) returning id`,
    [workspace.id, row!.id, d.customerId, d.args.channel, d.args.to, d.name, d.args.subject, d.args.message, d.at.toISOString()],
  );
  await tx.query(`update public.agent_decisions set result = $2::jsonb where id = $1`, [row!.id, JSON.stringify({ messageIds: [message!.id], ...d.result })]);
}
