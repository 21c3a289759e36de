import { randomUUID } from 'node:crypto';
import type { Tx } from '@/lib/db';
import type { DemoContext } from '@/lib/demo';
import { DEMO_SEED, generateDemoData, type DemoData } from './demo';

export interface PlanetDataTarget {
  workspaceId: string;
  /** Owner of the deals (a member of the workspace). */
  ownerId: string;
  /** The workspace's time zone: the demo's local wall-clock times are read in it. */
  timeZone: string;
}

/** Rows per statement: large enough to make seeding a handful of statements, small enough for PGlite. */
const BATCH = 2000;

async function insertBatches(tx: Tx, sql: string, rows: object[], params: unknown[]) {
  for (let i = 0; i < rows.length; i += BATCH) {
    await tx.query(sql, [JSON.stringify(rows.slice(i, i + BATCH)), ...params]);
  }
}

/**
 * Writes generated planet data into a workspace: one multi-row statement per table and batch
 * (`jsonb_to_recordset`), local times converted with `at time zone`. Fresh UUIDs are minted here, so
 * the same data can go into any number of workspaces. Runs as the service (trusted code only).
 */
export async function insertPlanetData(tx: Tx, target: PlanetDataTarget, data: DemoData): Promise<void> {
  const ids = (n: number) => Array.from({ length: n }, () => randomUUID());
  const service = ids(data.services.length);
  const staff = ids(data.staff.length);
  const customer = ids(data.customers.length);
  const stage = ids(data.pipelineStages.length);
  const { workspaceId, ownerId, timeZone } = target;
  const ws = [workspaceId, timeZone];

  await insertBatches(
    tx,
    `insert into public.services (id, workspace_id, name, category, duration_minutes, price_cents)
     select x.id, $2, x.name, x.category, x.duration_minutes, x.price_cents
       from jsonb_to_recordset($1::text::jsonb) as x(id uuid, name text, category text, duration_minutes int, price_cents int)`,
    data.services.map((s, i) => ({ id: service[i], name: s.name, category: s.category, duration_minutes: s.durationMinutes, price_cents: s.priceCents })),
    [workspaceId],
  );
  await insertBatches(
    tx,
    `insert into public.staff (id, workspace_id, name) select x.id, $2, x.name from jsonb_to_recordset($1::text::jsonb) as x(id uuid, name text)`,
    data.staff.map((s, i) => ({ id: staff[i], name: s.name })),
    [workspaceId],
  );
  await insertBatches(
    tx,
    `insert into public.opening_hours (workspace_id, weekday, opens, closes)
     select $2, x.weekday, x.opens, x.closes from jsonb_to_recordset($1::text::jsonb) as x(weekday int, opens time, closes time)`,
    data.openingHours,
    [workspaceId],
  );
  await insertBatches(
    tx,
    `insert into public.customers (id, workspace_id, name, email, phone, consent_marketing, consent_messages, vip, created_at)
     select x.id, $2, x.name, x.email, x.phone, x.consent_marketing, x.consent_messages, x.vip, x.created_at at time zone $3
       from jsonb_to_recordset($1::text::jsonb)
         as x(id uuid, name text, email text, phone text, consent_marketing boolean, consent_messages boolean, vip boolean, created_at timestamp)`,
    data.customers.map((c, i) => ({
      id: customer[i],
      name: c.name,
      email: c.email,
      phone: c.phone,
      consent_marketing: c.consentMarketing,
      consent_messages: c.consentMessages,
      vip: c.vip,
      created_at: c.createdAt,
    })),
    ws,
  );
  // The visit statistics on customers follow from this insert (statement trigger).
  await insertBatches(
    tx,
    `insert into public.appointments
       (workspace_id, customer_id, service_id, staff_id, starts_at, ends_at, status, price_cents, created_at, cancelled_at, reminder_sent_at)
     select $2, x.customer_id, x.service_id, x.staff_id, x.starts_at at time zone $3, x.ends_at at time zone $3, x.status, x.price_cents,
            x.created_at at time zone $3, x.cancelled_at at time zone $3, x.reminder_sent_at at time zone $3
       from jsonb_to_recordset($1::text::jsonb) as x(customer_id uuid, service_id uuid, staff_id uuid, starts_at timestamp, ends_at timestamp,
            status text, price_cents int, created_at timestamp, cancelled_at timestamp, reminder_sent_at timestamp)`,
    data.appointments.map((a) => ({
      customer_id: customer[a.customer],
      service_id: service[a.service],
      staff_id: staff[a.staff],
      starts_at: a.startsAt,
      ends_at: a.endsAt,
      status: a.status,
      price_cents: a.priceCents,
      created_at: a.createdAt,
      cancelled_at: a.cancelledAt,
      reminder_sent_at: a.reminderSentAt,
    })),
    ws,
  );
  await insertBatches(
    tx,
    `insert into public.waitlist_entries (workspace_id, customer_id, service_id, window_start, window_end, status, created_at, notified_at)
     select $2, x.customer_id, x.service_id, x.window_start at time zone $3, x.window_end at time zone $3, x.status,
            x.created_at at time zone $3, x.notified_at at time zone $3
       from jsonb_to_recordset($1::text::jsonb) as x(customer_id uuid, service_id uuid, window_start timestamp, window_end timestamp,
            status text, created_at timestamp, notified_at timestamp)`,
    data.waitlist.map((w) => ({
      customer_id: customer[w.customer],
      service_id: service[w.service],
      window_start: w.windowStart,
      window_end: w.windowEnd,
      status: w.status,
      created_at: w.createdAt,
      notified_at: w.notifiedAt,
    })),
    ws,
  );
  await insertBatches(
    tx,
    `insert into public.leads (workspace_id, name, email, phone, source, status, created_at)
     select $2, x.name, x.email, x.phone, x.source, x.status, x.created_at at time zone $3
       from jsonb_to_recordset($1::text::jsonb) as x(name text, email text, phone text, source text, status text, created_at timestamp)`,
    data.leads.map((l) => ({ name: l.name, email: l.email, phone: l.phone, source: l.source, status: l.status, created_at: l.createdAt })),
    ws,
  );
  await insertBatches(
    tx,
    `insert into public.pipeline_stages (id, workspace_id, name, position, probability)
     select x.id, $2, x.name, x.position, x.probability from jsonb_to_recordset($1::text::jsonb) as x(id uuid, name text, position int, probability int)`,
    data.pipelineStages.map((s, i) => ({ id: stage[i], name: s.name, position: s.position, probability: s.probability })),
    [workspaceId],
  );
  await insertBatches(
    tx,
    `insert into public.deals (workspace_id, title, customer_id, owner_user_id, stage_id, value_cents, status, last_activity_at, created_at, closed_at)
     select $2, x.title, x.customer_id, $4, x.stage_id, x.value_cents, x.status, x.last_activity_at at time zone $3,
            x.created_at at time zone $3, x.closed_at at time zone $3
       from jsonb_to_recordset($1::text::jsonb) as x(title text, customer_id uuid, stage_id uuid, value_cents bigint, status text,
            last_activity_at timestamp, created_at timestamp, closed_at timestamp)`,
    data.deals.map((d) => ({
      title: d.title,
      customer_id: d.customer === null ? null : customer[d.customer],
      stage_id: stage[d.stage],
      value_cents: d.valueCents,
      status: d.status,
      last_activity_at: d.lastActivityAt,
      created_at: d.createdAt,
      closed_at: d.closedAt,
    })),
    [...ws, ownerId],
  );
  await insertBatches(
    tx,
    `insert into public.posts (workspace_id, channel, title, status, scheduled_at, published_at, reach, engagements, created_at)
     select $2, x.channel, x.title, x.status, x.scheduled_at at time zone $3, x.published_at at time zone $3, x.reach, x.engagements,
            x.created_at at time zone $3
       from jsonb_to_recordset($1::text::jsonb) as x(channel text, title text, status text, scheduled_at timestamp, published_at timestamp,
            reach int, engagements int, created_at timestamp)`,
    data.posts.map((p) => ({
      channel: p.channel,
      title: p.title,
      status: p.status,
      scheduled_at: p.scheduledAt,
      published_at: p.publishedAt,
      reach: p.reach,
      engagements: p.engagements,
      created_at: p.createdAt,
    })),
    ws,
  );
  await insertBatches(
    tx,
    `insert into public.campaigns (workspace_id, name, channel, status, scheduled_at, sent_at, recipients, opens, clicks, conversions, created_at)
     select $2, x.name, x.channel, x.status, x.scheduled_at at time zone $3, x.sent_at at time zone $3, x.recipients, x.opens, x.clicks,
            x.conversions, x.created_at at time zone $3
       from jsonb_to_recordset($1::text::jsonb) as x(name text, channel text, status text, scheduled_at timestamp, sent_at timestamp,
            recipients int, opens int, clicks int, conversions int, created_at timestamp)`,
    data.campaigns.map((c) => ({
      name: c.name,
      channel: c.channel,
      status: c.status,
      scheduled_at: c.scheduledAt,
      sent_at: c.sentAt,
      recipients: c.recipients,
      opens: c.opens,
      clicks: c.clicks,
      conversions: c.conversions,
      created_at: c.createdAt,
    })),
    ws,
  );
  await insertBatches(
    tx,
    `insert into public.site_daily_stats (workspace_id, day, visits, booking_page_visits, conversions)
     select $2, x.day, x.visits, x.booking_page_visits, x.conversions
       from jsonb_to_recordset($1::text::jsonb) as x(day date, visits int, booking_page_visits int, conversions int)`,
    data.siteDailyStats.map((d) => ({ day: d.day, visits: d.visits, booking_page_visits: d.bookingPageVisits, conversions: d.conversions })),
    [workspaceId],
  );
}

/**
 * The demo seeder for Studio Aurora (register it in lib/demo's `demoSeeders`): the planet data anchored
 * on today's date in the workspace's time zone, from the fixed demo seed.
 */
export async function seedPlanetsDemo(tx: Tx, demo: DemoContext): Promise<void> {
  const [workspace] = await tx.query<{ time_zone: string; today: string }>(
    `select time_zone, to_char($2::timestamptz at time zone time_zone, 'YYYY-MM-DD') as today from public.workspaces where id = $1`,
    [demo.workspaceId, demo.now],
  );
  if (!workspace) throw new Error(`workspace ${demo.workspaceId} not found`);
  const data = generateDemoData(DEMO_SEED, workspace.today);
  await insertPlanetData(tx, { workspaceId: demo.workspaceId, ownerId: demo.ownerId, timeZone: workspace.time_zone }, data);
}
