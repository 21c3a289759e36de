import { isUuid, managersOnly, notFound, rethrowAsApiError } from '@/lib/api';
import { roleIn } from '@/lib/autonomy';
import { asService, elevated, withUser, type SessionUser, type Tx } from '@/lib/db';
import { sendEvent } from '@/lib/events';
import type { Planet } from '@/lib/planets';
import type { AnalysisOutcome } from './analyze';

/** The local hour at which a workspace's day is analysed. */
export const ANALYSIS_HOUR = 6;

/**
 * The data each planet reads: a planet with none of it is not scheduled at all, so the thousands of
 * personal workspaces with no business data cost one query, not six runs a day.
 */
const PLANET_DATA: Record<Planet, string> = {
  booking: 'public.appointments',
  crm: 'public.customers',
  sales: 'public.deals',
  content: 'public.posts',
  marketing: 'public.campaigns',
  web: 'public.site_daily_stats',
};

/**
 * The hourly fan-out. One cron cannot fire at 06:00 in every time zone, so it runs every hour and takes
 * each workspace whose local time is past 06:00 and whose local date has not been analysed yet: that
 * is 06:00–06:59 local on a normal day (zones with :30 and :45 offsets included), and the first hour
 * after an outage otherwise — a missed morning is caught up, never skipped. Claims are rows keyed by
 * (workspace, local date, planet) taken in the same transaction that sends the planet's run event,
 * so a day is analysed once however often or concurrently the cron fires.
 */
export async function claimDueAnalyses(now: Date): Promise<AnalysisRun[]> {
  return asService(async (tx) => {
    const claimed = await tx.query<ClaimRow>(
      `insert into private.analysis_days (workspace_id, local_date, planet, claimed_at)
       select w.id, (($1::timestamptz) at time zone w.time_zone)::date, p.planet, $1
         from public.workspaces w
         cross join unnest($3::text[]) as p(planet)
        where extract(hour from ($1::timestamptz at time zone w.time_zone)) >= $2
          and ${HAS_PLANET_DATA}
       on conflict (workspace_id, local_date, planet) do nothing
       returning workspace_id, planet, to_char(local_date, 'YYYY-MM-DD') as local_date`,
      [now.toISOString(), ANALYSIS_HOUR, PLANET_NAMES],
    );
    return fanOut(tx, claimed);
  });
}

type AnalysisRun = { workspaceId: string; planet: Planet; localDate: string };
type ClaimRow = { workspace_id: string; planet: Planet; local_date: string };

const PLANET_NAMES = Object.keys(PLANET_DATA) as Planet[];
/** True for the planets (`p.planet`) of the workspace (`w`) that have data to read. */
const HAS_PLANET_DATA = `case p.planet
                ${PLANET_NAMES.map((planet) => `when '${planet}' then exists (select 1 from ${PLANET_DATA[planet]} d where d.workspace_id = w.id)`).join('\n                ')}
              end`;

/** Sends one run event per claim, in the claiming transaction: a claim exists exactly when its run does. */
async function fanOut(tx: Tx, claimed: ClaimRow[]): Promise<AnalysisRun[]> {
  const runs = claimed.map((c) => ({ workspaceId: c.workspace_id, planet: c.planet, localDate: c.local_date }));
  await sendEvent(
    runs.map((data) => ({ name: 'insights/analyze.planet' as const, data })),
    tx,
  );
  return runs;
}

export interface AnalysisNow {
  /** The planets whose analysis was started now (those with data to read). */
  started: Planet[];
  /** Planets already being analysed, left to finish. */
  alreadyRunning: number;
}

/**
 * "Run now": today's analysis of every planet that has data, at once, through the same runs as the
 * 06:00 fan-out (it claims today's local date, so the hourly cron does not analyse the day again). A
 * planet analysed earlier today is analysed again (insights update in place, nothing is proposed
 * twice); one still running is left alone. The owner and admins only: the analysis proposes actions.
 */
export async function runAnalysisNow(user: SessionUser, workspaceId: string, now = new Date()): Promise<AnalysisNow> {
  if (!isUuid(workspaceId)) throw notFound('workspace');
  return withUser(user, async (tx) => {
    if ((await roleIn(tx, user, workspaceId)) === 'member') throw managersOnly('runAnalysis');
    return elevated(tx, async (service) => {
      // Counted before claiming: the claim below leaves unfinished runs alone.
      const [running] = await service.query<{ n: number }>(
        `select count(*)::int as n from private.analysis_days
          where workspace_id = $1 and finished_at is null and claimed_at > $2::timestamptz - interval '30 minutes'`,
        [workspaceId, now.toISOString()],
      );
      const claimed = await service.query<ClaimRow>(
        `insert into private.analysis_days as a (workspace_id, local_date, planet, claimed_at)
         select w.id, (($2::timestamptz) at time zone w.time_zone)::date, p.planet, $2
           from public.workspaces w
           cross join unnest($3::text[]) as p(planet)
          where w.id = $1 and ${HAS_PLANET_DATA}
         on conflict (workspace_id, local_date, planet) do update set claimed_at = excluded.claimed_at, finished_at = null, outcome = null
           where a.finished_at is not null
         returning workspace_id, planet, to_char(local_date, 'YYYY-MM-DD') as local_date`,
        [workspaceId, now.toISOString(), PLANET_NAMES],
      );
      const runs = await fanOut(service, claimed);
      return { started: runs.map((r) => r.planet), alreadyRunning: running!.n };
    });
  }).catch(rethrowAsApiError);
}

export interface AnalysisState {
  /** Some analysis of this workspace has finished, ever: only then have its agents looked. */
  finishedEver: boolean;
  /** Planets being analysed right now. */
  running: number;
  /** Today's (local) analysis has been claimed: the hourly fan-out will not take it again today. */
  claimedToday: boolean;
  /** The next time the fan-out could analyse the workspace, given that it has data to read. */
  nextRunAt: Date;
}

/** The daily analysis as a member sees it (404 for anyone else), read in the caller's transaction. */
export async function analysisState(tx: Tx, workspaceId: string, now: Date): Promise<AnalysisState> {
  if (!isUuid(workspaceId)) throw notFound('workspace');
  const [row] = await tx.query<{ finished_ever: boolean; running: number; claimed_today: boolean; local_hour: number; next_hour: Date; next_daily: Date }>(
    `select * from private.analysis_state($1, $2, $3)`,
    [workspaceId, now.toISOString(), ANALYSIS_HOUR],
  );
  if (!row) throw notFound('workspace');
  // Past the hour and not yet claimed today, the next hourly tick takes the day (a missed morning is caught up).
  const catchUp = row.local_hour >= ANALYSIS_HOUR && !row.claimed_today;
  return { finishedEver: row.finished_ever, running: row.running, claimedToday: row.claimed_today, nextRunAt: new Date(catchUp ? row.next_hour : row.next_daily) };
}

export async function getAnalysisState(user: SessionUser, workspaceId: string, now = new Date()): Promise<AnalysisState> {
  return withUser(user, (tx) => analysisState(tx, workspaceId, now)).catch(rethrowAsApiError);
}

export async function recordAnalysis(run: { workspaceId: string; planet: string; localDate: string }, outcome: AnalysisOutcome, now: Date) {
  await asService((tx) =>
    tx.query(`update private.analysis_days set finished_at = $4, outcome = $5::jsonb where workspace_id = $1 and local_date = $2::date and planet = $3`, [
      run.workspaceId,
      run.localDate,
      run.planet,
      now.toISOString(),
      JSON.stringify(outcome),
    ]),
  );
}

/** Claims older than a month are history nobody reads. */
export async function pruneAnalysisDays(now: Date): Promise<number> {
  const rows = await asService((tx) => tx.query(`delete from private.analysis_days where claimed_at < $1::timestamptz - interval '31 days' returning 1`, [now.toISOString()]));
  return rows.length;
}
