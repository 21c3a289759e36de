import type { Tx } from '@/lib/db';
import { createTranslator } from '@/lib/i18n';
import { en } from '@/lib/i18n/messages/en';
import { loadSectorBenchmark, type SectorBenchmark } from '@/lib/knowledge';
import { SECTORS } from '@/lib/workspaces';
import { healthReason } from './format';
import { RULES, assessHealth } from './health';
import { at, daysBefore, loadPeriods, type Periods } from './periods';
import { PLANETS, type Metric, type MetricUnit, type MetricsOptions, type Planet, type PlanetMetrics, type Pulse } from './types';

/**
 * Planet metrics, read straight from the planet tables. Every query is bounded by
 * `workspace_id = $1` and a time range on an indexed column, so the cost follows the rows in the
 * window, not the size of the history. They run under whatever role the caller's transaction has: as
 * a member (RLS) for the app, as the service for background work.
 */

/** Customers count as active while their last visit is within twice the sector's cadence, at least 90 days. */
const ACTIVE_MIN_DAYS = 90;
/**
 * A customer with at least LAPSE_MIN_VISITS completed visits is lapsed once the time since their last
 * visit exceeds their own usual gap times LAPSE_GRACE and nothing is booked: a few days late is normal,
 * a quarter of their usual gap late is a signal. Three visits (two gaps) before a gap counts as
 * "usual", as Phorest does.
 */
export const LAPSE_MIN_VISITS = 3;
export const LAPSE_GRACE = 1.25;
/** An open deal with no activity for this long is stale. */
export const STALE_DEAL_DAYS = 14;

const change = (value: number | null, previous: number | null) =>
  value === null || previous === null || previous === 0 ? null : Math.round(((value - previous) / previous) * 1000) / 10;
const rate = (part: number, whole: number) => (whole > 0 ? part / whole : null);
const metric = (unit: MetricUnit, value: number | null, previous?: number | null): Metric =>
  previous === undefined ? { value, unit } : { value, unit, previous, changePct: change(value, previous) };

interface Computed {
  metrics: Record<string, Metric>;
  /** The denominator behind each rate, so health can ignore rates built on too few observations. */
  samples: Record<string, number>;
}

interface BookingRow {
  today: number; today_prev: number; week: number; week_prev: number; minutes_week: number; minutes_week_prev: number;
  no_shows: number; kept_or_missed: number; cancelled: number; all_30d: number;
  revenue_week: number; revenue_week_prev: number; booked_week: number; revenue_30d: number; completed_30d: number;
  rebooked: number; capacity_minutes: number; waiting: number;
}
interface CrmRow {
  active: number; new_30d: number; new_prev: number; lapsed: number; average_gap_days: number | null; gap_customers: number;
  leads_7d: number; leads_prev: number; leads_90d: number; converted_90d: number;
}
interface SalesRow {
  open_value: number; weighted_value: number; open_deals: number; stale: number; won_month: number; won_prev: number; won_90d: number; lost_90d: number;
}
interface ContentRow {
  posts_30d: number; posts_prev: number; reach_30d: number; engagements_30d: number; reach_prev: number; engagements_prev: number; scheduled_7d: number;
}
interface MarketingRow {
  sent_30d: number; sent_prev: number; email_recipients: number; opens: number; clicks: number; recipients: number; conversions: number;
}
interface WebRow {
  visits_7d: number; visits_prev: number; page_7d: number; page_prev: number; conversions_7d: number; conversions_prev: number;
}

type PlanetQuery = (tx: Tx, workspaceId: string, p: Periods, figures: SectorBenchmark) => Promise<Computed>;

const booking: PlanetQuery = async (tx, workspaceId, p, figures) => {
  // One pass over the last 30 days up to the end of this week (the week comparisons fall inside it).
  // The 30-day rates carry no previous period: that would double the rows read on every Home load.
  const d30 = daysBefore(p.now, 30);
  const [row] = await tx.query<BookingRow>(
    `select s.*, cap.minutes as capacity_minutes, w.waiting
       from (
         select count(*) filter (where starts_at >= $3 and starts_at < $4 and status <> 'cancelled')::int as today,
                count(*) filter (where starts_at >= $5 and starts_at < $6 and status <> 'cancelled')::int as today_prev,
                count(*) filter (where starts_at >= $7 and starts_at < $8 and status <> 'cancelled')::int as week,
                count(*) filter (where starts_at >= $9 and starts_at < $7 and status <> 'cancelled')::int as week_prev,
                coalesce(sum(extract(epoch from ends_at - starts_at) / 60)
                  filter (where starts_at >= $7 and starts_at < $8 and status <> 'cancelled'), 0)::float8 as minutes_week,
                coalesce(sum(extract(epoch from ends_at - starts_at) / 60)
                  filter (where starts_at >= $9 and starts_at < $7 and status <> 'cancelled'), 0)::float8 as minutes_week_prev,
                count(*) filter (where starts_at < $2 and status = 'no_show')::int as no_shows,
                count(*) filter (where starts_at < $2 and status in ('completed', 'no_show'))::int as kept_or_missed,
                count(*) filter (where starts_at < $2 and status = 'cancelled')::int as cancelled,
                count(*) filter (where starts_at < $2)::int as all_30d,
                coalesce(sum(price_cents) filter (where status = 'completed' and starts_at >= $7 and starts_at < $3), 0)::int8 as revenue_week,
                coalesce(sum(price_cents) filter (where status = 'completed' and starts_at >= $9 and starts_at < $5), 0)::int8 as revenue_week_prev,
                coalesce(sum(price_cents) filter (where status in ('booked', 'confirmed', 'completed') and starts_at >= $7 and starts_at < $8), 0)::int8 as booked_week,
                coalesce(sum(price_cents) filter (where status = 'completed' and starts_at < $2), 0)::int8 as revenue_30d,
                count(*) filter (where status = 'completed' and starts_at < $2)::int as completed_30d,
                -- Rebooked: a later appointment was booked by 24 h after the visit ended (Kitomba's
                -- definition; one booked before the visit counts too), kept on the row by a trigger
                -- (supabase/migrations/20261201000100_appointment_rebooked.sql).
                count(*) filter (where status = 'completed' and starts_at < $2 and rebooked)::int as rebooked
           from public.appointments
          where workspace_id = $1 and starts_at >= $10 and starts_at < $8
       ) s,
       -- Weekly capacity: opening minutes of the weekly template times active staff (holidays ignored).
       (select (select coalesce(sum(extract(epoch from closes - opens) / 60), 0) from public.opening_hours where workspace_id = $1)::float8
             * (select count(*) from public.staff where workspace_id = $1 and active) as minutes) cap,
       (select count(*)::int as waiting from public.waitlist_entries
         where workspace_id = $1 and status in ('waiting', 'offered') and window_end > $2) w`,
    [
      workspaceId, at(p.now), at(p.todayStart), at(p.tomorrowStart), at(p.sameDayLastWeekStart), at(p.sameDayLastWeekEnd),
      at(p.weekStart), at(p.nextWeekStart), at(p.lastWeekStart), at(d30),
    ],
  );
  const r = row!;
  return {
    metrics: {
      // Not cancelled, so no-shows count: the slot was taken. Compared with the same weekday last week.
      bookings_today: metric('count', r.today, r.today_prev),
      // The whole ISO week (past and booked ahead) against the whole of last week.
      bookings_week: metric('count', r.week, r.week_prev),
      occupancy_week: metric('ratio', rate(r.minutes_week, r.capacity_minutes), rate(r.minutes_week_prev, r.capacity_minutes)),
      no_show_rate_30d: metric('ratio', rate(r.no_shows, r.kept_or_missed)),
      cancellation_rate_30d: metric('ratio', rate(r.cancelled, r.all_30d)),
      rebooking_rate_30d: metric('ratio', rate(r.rebooked, r.completed_30d)),
      waitlist_size: metric('count', r.waiting),
      // Takings of this week's finished days (Monday until last midnight) against the same days of last
      // week. Today stays out on both sides: its visits are still being checked out, so "so far today"
      // would set a half-recorded day against a closed one (see docs/home.md, the pulse).
      revenue_week: metric('cents', r.revenue_week, r.revenue_week_prev),
      // What the whole week is set to take: completed visits plus those still booked or confirmed.
      booked_value_week: metric('cents', r.booked_week),
      average_ticket_30d: {
        ...metric('cents', r.completed_30d ? Math.round(r.revenue_30d / r.completed_30d) : null),
        benchmark: figures.averageTicketEur.value * 100,
      },
    },
    samples: {
      no_show_rate_30d: r.kept_or_missed,
      rebooking_rate_30d: r.completed_30d,
      // A week's change is judged on last week's bookings, occupancy's too.
      bookings_week: r.week_prev,
      occupancy_week: r.week_prev,
    },
  };
};

const crm: PlanetQuery = async (tx, workspaceId, p, figures) => {
  const activeDays = Math.max(ACTIVE_MIN_DAYS, 2 * figures.visitCadenceDays.value);
  // One pass over the customers: their visit statistics are kept on the row (see the migration).
  const [row] = await tx.query<CrmRow>(
    `select c.*, l.*
       from (select count(*) filter (where last_visit_at >= $3)::int as active,
                    count(*) filter (where created_at >= $4 and created_at < $2)::int as new_30d,
                    count(*) filter (where created_at >= $5 and created_at < $4)::int as new_prev,
                    count(*) filter (
                      where visit_count >= $9
                        and last_visit_at < $2::timestamptz - (last_visit_at - first_visit_at) / (visit_count - 1) * $10::float8
                        and not exists (select 1 from public.appointments a
                                         where a.workspace_id = cu.workspace_id and a.customer_id = cu.id
                                           and a.starts_at >= $2 and a.status in ('booked', 'confirmed')))::int as lapsed,
                    avg(date_part('epoch', last_visit_at - first_visit_at) / 86400 / (visit_count - 1))
                      filter (where visit_count >= 2) as average_gap_days,
                    count(*) filter (where visit_count >= 2)::int as gap_customers
               from public.customers cu where cu.workspace_id = $1) c,
            (select count(*) filter (where created_at >= $6)::int as leads_7d,
                    count(*) filter (where created_at >= $7 and created_at < $6)::int as leads_prev,
                    count(*)::int as leads_90d,
                    count(*) filter (where status = 'converted')::int as converted_90d
               from public.leads where workspace_id = $1 and created_at >= $8 and created_at < $2) l`,
    [
      workspaceId, at(p.now), at(daysBefore(p.now, activeDays)), at(daysBefore(p.now, 30)), at(daysBefore(p.now, 60)),
      at(daysBefore(p.now, 7)), at(daysBefore(p.now, 14)), at(daysBefore(p.now, 90)), LAPSE_MIN_VISITS, LAPSE_GRACE,
    ],
  );
  const r = row!;
  return {
    metrics: {
      active_customers: metric('count', r.active),
      new_customers_30d: metric('count', r.new_30d, r.new_prev),
      lapsed_customers: metric('count', r.lapsed),
      average_visit_gap_days: metric('days', r.average_gap_days === null ? null : Math.round(r.average_gap_days * 10) / 10),
      leads_7d: metric('count', r.leads_7d, r.leads_prev),
      lead_conversion_90d: metric('ratio', rate(r.converted_90d, r.leads_90d)),
    },
    samples: { average_visit_gap_days: r.gap_customers, lead_conversion_90d: r.leads_90d, new_customers_30d: r.new_prev, leads_7d: r.leads_prev },
  };
};

const sales: PlanetQuery = async (tx, workspaceId, p) => {
  const [row] = await tx.query<SalesRow>(
    `select coalesce(sum(d.value_cents) filter (where d.status = 'open'), 0)::int8 as open_value,
            coalesce(sum(d.value_cents * s.probability / 100.0) filter (where d.status = 'open'), 0)::float8 as weighted_value,
            count(*) filter (where d.status = 'open')::int as open_deals,
            count(*) filter (where d.status = 'open' and d.last_activity_at < $3)::int as stale,
            coalesce(sum(d.value_cents) filter (where d.status = 'won' and d.closed_at >= $4 and d.closed_at < $2), 0)::int8 as won_month,
            coalesce(sum(d.value_cents) filter (where d.status = 'won' and d.closed_at >= $5 and d.closed_at < $6), 0)::int8 as won_prev,
            count(*) filter (where d.status = 'won' and d.closed_at >= $7 and d.closed_at < $2)::int as won_90d,
            count(*) filter (where d.status = 'lost' and d.closed_at >= $7 and d.closed_at < $2)::int as lost_90d
       from public.deals d
       join public.pipeline_stages s on s.workspace_id = d.workspace_id and s.id = d.stage_id
      where d.workspace_id = $1`,
    [workspaceId, at(p.now), at(daysBefore(p.now, STALE_DEAL_DAYS)), at(p.monthStart), at(p.lastMonthStart), at(p.lastMonthSameTime), at(daysBefore(p.now, 90))],
  );
  const r = row!;
  return {
    metrics: {
      open_pipeline_value: metric('cents', r.open_value),
      // Each open deal's value times its stage's probability.
      weighted_pipeline_value: metric('cents', Math.round(r.weighted_value)),
      open_deals: metric('count', r.open_deals),
      stale_deals: metric('count', r.stale),
      stale_deal_share: metric('ratio', rate(r.stale, r.open_deals)),
      // This month so far against the same span of last month.
      won_this_month: metric('cents', r.won_month, r.won_prev),
      win_rate_90d: metric('ratio', rate(r.won_90d, r.won_90d + r.lost_90d)),
    },
    samples: { stale_deal_share: r.open_deals, win_rate_90d: r.won_90d + r.lost_90d },
  };
};

const content: PlanetQuery = async (tx, workspaceId, p) => {
  const d30 = daysBefore(p.now, 30);
  const [row] = await tx.query<ContentRow>(
    `select s.*, (select count(*)::int from public.posts
                   where workspace_id = $1 and status = 'scheduled' and scheduled_at >= $2 and scheduled_at < $5) as scheduled_7d
       from (select count(*) filter (where published_at >= $3)::int as posts_30d,
                    count(*) filter (where published_at < $3)::int as posts_prev,
                    coalesce(sum(reach) filter (where published_at >= $3), 0)::int8 as reach_30d,
                    coalesce(sum(engagements) filter (where published_at >= $3), 0)::int8 as engagements_30d,
                    coalesce(sum(reach) filter (where published_at < $3), 0)::int8 as reach_prev,
                    coalesce(sum(engagements) filter (where published_at < $3), 0)::int8 as engagements_prev
               from public.posts
              where workspace_id = $1 and published_at >= $4 and published_at < $2) s`,
    [workspaceId, at(p.now), at(d30), at(daysBefore(p.now, 60)), at(new Date(p.now.getTime() + 7 * 86_400_000))],
  );
  const r = row!;
  return {
    metrics: {
      posts_published_30d: metric('count', r.posts_30d, r.posts_prev),
      // Engagements over reach of the posts published in the window.
      engagement_rate_30d: metric('ratio', rate(r.engagements_30d, r.reach_30d), rate(r.engagements_prev, r.reach_prev)),
      posts_scheduled_7d: metric('count', r.scheduled_7d),
    },
    samples: { engagement_rate_30d: r.reach_30d, posts_published_30d: r.posts_prev },
  };
};

const marketing: PlanetQuery = async (tx, workspaceId, p) => {
  const [row] = await tx.query<MarketingRow>(
    `select count(*) filter (where sent_at >= $3)::int as sent_30d,
            count(*) filter (where sent_at >= $4 and sent_at < $3)::int as sent_prev,
            coalesce(sum(recipients) filter (where channel = 'email'), 0)::int8 as email_recipients,
            coalesce(sum(opens) filter (where channel = 'email'), 0)::int8 as opens,
            coalesce(sum(clicks) filter (where channel = 'email'), 0)::int8 as clicks,
            coalesce(sum(recipients), 0)::int8 as recipients,
            coalesce(sum(conversions), 0)::int8 as conversions
       from public.campaigns
      where workspace_id = $1 and status = 'sent' and sent_at >= $5 and sent_at < $2`,
    [workspaceId, at(p.now), at(daysBefore(p.now, 30)), at(daysBefore(p.now, 60)), at(daysBefore(p.now, 90))],
  );
  const r = row!;
  return {
    metrics: {
      campaigns_sent_30d: metric('count', r.sent_30d, r.sent_prev),
      // Opens and clicks are email-only (SMS opens are not measurable); conversions count every channel.
      open_rate_90d: metric('ratio', rate(r.opens, r.email_recipients)),
      click_rate_90d: metric('ratio', rate(r.clicks, r.email_recipients)),
      conversion_rate_90d: metric('ratio', rate(r.conversions, r.recipients)),
    },
    samples: { open_rate_90d: r.email_recipients, click_rate_90d: r.email_recipients },
  };
};

const web: PlanetQuery = async (tx, workspaceId, p) => {
  // The last seven complete local days against the seven before; today's row is still filling up.
  const [row] = await tx.query<WebRow>(
    `select coalesce(sum(visits) filter (where day >= $2::date - 7), 0)::int8 as visits_7d,
            coalesce(sum(visits) filter (where day < $2::date - 7), 0)::int8 as visits_prev,
            coalesce(sum(booking_page_visits) filter (where day >= $2::date - 7), 0)::int8 as page_7d,
            coalesce(sum(booking_page_visits) filter (where day < $2::date - 7), 0)::int8 as page_prev,
            coalesce(sum(conversions) filter (where day >= $2::date - 7), 0)::int8 as conversions_7d,
            coalesce(sum(conversions) filter (where day < $2::date - 7), 0)::int8 as conversions_prev
       from public.site_daily_stats
      where workspace_id = $1 and day >= $2::date - 14 and day < $2::date`,
    [workspaceId, p.today],
  );
  const r = row!;
  return {
    metrics: {
      visits_7d: metric('count', r.visits_7d, r.visits_prev),
      booking_page_visits_7d: metric('count', r.page_7d, r.page_prev),
      booking_conversion_7d: metric('ratio', rate(r.conversions_7d, r.page_7d), rate(r.conversions_prev, r.page_prev)),
    },
    samples: { booking_conversion_7d: r.page_7d, visits_7d: r.visits_prev, booking_page_visits_7d: r.page_prev },
  };
};

const QUERIES: Record<Planet, PlanetQuery> = { booking, crm, sales, content, marketing, web };

async function planetMetrics(tx: Tx, workspaceId: string, planet: Planet, periods: Periods): Promise<PlanetMetrics> {
  const benchmark = loadSectorBenchmark(periods.sector ?? 'other');
  const { metrics, samples } = await QUERIES[planet](tx, workspaceId, periods, benchmark.figures);
  for (const rule of RULES[planet]) {
    const judged = metrics[rule.metric];
    if (judged && typeof rule.benchmark === 'string') judged.benchmark = benchmark.figures[rule.benchmark].value;
  }
  const { health, findings } = assessHealth(planet, metrics, samples, benchmark);
  const sector = SECTORS.find((s) => s.id === benchmark.sector)!.label.en;
  const reasons = findings.map((f) => {
    const reason = healthReason(f, sector, 'en', english);
    return `${reason.charAt(0).toUpperCase()}${reason.slice(1)}.`;
  });
  return { planet, metrics, sector: benchmark.sector, health, findings, reasons };
}

const english = createTranslator(en, 'en');

/** One planet's metrics, each with its comparison, and the planet's health against the sector benchmark. */
export async function computePlanetMetrics(tx: Tx, workspaceId: string, planet: Planet, options: MetricsOptions): Promise<PlanetMetrics> {
  return planetMetrics(tx, workspaceId, planet, await loadPeriods(tx, workspaceId, options.now ?? new Date(), options.timeZone));
}

/**
 * Everything the Home shows, for the price of seven queries: the six planets (periods loaded once) and
 * the pulse, read off the booking and crm metrics so the two can never disagree.
 */
export async function computeAllPlanets(tx: Tx, workspaceId: string, options: MetricsOptions): Promise<{ pulse: Pulse; planets: PlanetMetrics[] }> {
  const periods = await loadPeriods(tx, workspaceId, options.now ?? new Date(), options.timeZone);
  const planets: PlanetMetrics[] = [];
  // One after another: a transaction is one connection.
  for (const planet of PLANETS) planets.push(await planetMetrics(tx, workspaceId, planet, periods));
  const booking = planets.find((p) => p.planet === 'booking')!.metrics;
  const crm = planets.find((p) => p.planet === 'crm')!.metrics;
  const revenue = booking.revenue_week!;
  return {
    pulse: {
      bookingsToday: booking.bookings_today!.value!,
      newLeads7d: crm.leads_7d!.value!,
      revenueThisWeekCents: revenue.value!,
      revenueLastWeekCents: revenue.previous!,
      revenueChangePct: revenue.changePct ?? null,
      bookedThisWeekCents: booking.booked_value_week!.value!,
    },
    planets,
  };
}

/**
 * The Home's one line: bookings today, new leads in 7 days, and revenue — this week's finished days
 * against the same days of last week, with the week's booked value for when there is nothing to
 * compare yet. The same figures as the booking and crm metrics, in one light query.
 */
export async function computePulse(tx: Tx, workspaceId: string, options: MetricsOptions): Promise<Pulse> {
  const p = await loadPeriods(tx, workspaceId, options.now ?? new Date(), options.timeZone);
  const [row] = await tx.query<{ today: number; leads: number; revenue: number; revenue_prev: number; booked: number }>(
    `select count(*) filter (where starts_at >= $3 and starts_at < $4 and status <> 'cancelled')::int as today,
            (select count(*)::int from public.leads where workspace_id = $1 and created_at >= $5 and created_at < $2) as leads,
            coalesce(sum(price_cents) filter (where status = 'completed' and starts_at >= $6 and starts_at < $3), 0)::int8 as revenue,
            coalesce(sum(price_cents) filter (where status = 'completed' and starts_at >= $7 and starts_at < $8), 0)::int8 as revenue_prev,
            coalesce(sum(price_cents) filter (where status in ('booked', 'confirmed', 'completed') and starts_at >= $6), 0)::int8 as booked
       from public.appointments
      where workspace_id = $1 and starts_at >= $7 and starts_at < $9`,
    [workspaceId, at(p.now), at(p.todayStart), at(p.tomorrowStart), at(daysBefore(p.now, 7)), at(p.weekStart), at(p.lastWeekStart), at(p.sameDayLastWeekStart), at(p.nextWeekStart)],
  );
  const r = row!;
  return {
    bookingsToday: r.today,
    newLeads7d: r.leads,
    revenueThisWeekCents: r.revenue,
    revenueLastWeekCents: r.revenue_prev,
    revenueChangePct: change(r.revenue, r.revenue_prev),
    bookedThisWeekCents: r.booked,
  };
}
