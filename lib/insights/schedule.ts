import { asService } from '@/lib/db';
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
export async function claimDueAnalyses(now: Date): Promise<Array<{ workspaceId: string; planet: Planet; localDate: string }>> {
  return asService(async (tx) => {
    const planets = Object.keys(PLANET_DATA) as Planet[];
    const claimed = await tx.query<{ workspace_id: string; planet: Planet; local_date: string }>(
      `insert into private.analysis_days (workspace_id, local_date, planet, claimed_at)
       select w.id, (($1::timestamptz) at time zone w.time_zone)::date, p.planet, $1
         from public.workspaces w
         cross join unnest($3::text[]) as p(planet)
        where extract(hour from ($1::timestamptz at time zone w.time_zone)) >= $2
          and case p.planet
                ${planets.map((planet) => `when '${planet}' then exists (select 1 from ${PLANET_DATA[planet]} d where d.workspace_id = w.id)`).join('\n                ')}
              end
       on conflict (workspace_id, local_date, planet) do nothing
       returning workspace_id, planet, to_char(local_date, 'YYYY-MM-DD') as local_date`,
      [now.toISOString(), ANALYSIS_HOUR, planets],
    );
    const runs = claimed.map((c) => ({ workspaceId: c.workspace_id, planet: c.planet, localDate: c.local_date }));
    await sendEvent(
      runs.map((data) => ({ name: 'insights/analyze.planet' as const, data })),
      tx,
    );
    return runs;
  });
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
