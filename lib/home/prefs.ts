import { z } from 'zod';
import { isUuid, notFound, rethrowAsApiError } from '@/lib/api';
import { withUser, type SessionUser } from '@/lib/db';
import { PLANETS, type Planet } from '@/lib/planets';

/** The Home's sections below the pulse line (which always comes first: it is one line). */
export const SECTIONS = ['needs', 'done', 'planets'] as const;
export type SectionId = (typeof SECTIONS)[number];

export interface HomePrefs {
  /** Display order; pinned ones first. */
  sections: SectionId[];
  pinnedSections: SectionId[];
  planets: Planet[];
  pinnedPlanets: Planet[];
}

export const DEFAULT_PREFS: HomePrefs = { sections: [...SECTIONS], pinnedSections: [], planets: [...PLANETS], pinnedPlanets: [] };

export const homePrefsSchema = z
  .object({
    sections: z.array(z.enum(SECTIONS)).max(SECTIONS.length),
    pinnedSections: z.array(z.enum(SECTIONS)).max(SECTIONS.length),
    planets: z.array(z.enum(PLANETS)).max(PLANETS.length),
    pinnedPlanets: z.array(z.enum(PLANETS)).max(PLANETS.length),
  })
  .partial();

/**
 * A complete, consistent layout from whatever is stored: every item exactly once (new ones appended in
 * their default place), pinned items first in their saved order.
 */
export function normalizePrefs(stored: unknown): HomePrefs {
  const value = (stored && typeof stored === 'object' ? stored : {}) as Record<string, unknown>;
  // Field by field, unknown entries dropped: one stale id never costs a person their whole layout.
  const known = <T extends string>(list: unknown, all: readonly T[]): T[] =>
    Array.isArray(list) ? [...new Set(list.filter((x): x is T => all.includes(x as T)))] : [];
  const order = <T extends string>(saved: T[], all: readonly T[], pinned: T[]) => {
    const seen = [...new Set([...saved, ...all])];
    return [...seen.filter((x) => pinned.includes(x)), ...seen.filter((x) => !pinned.includes(x))];
  };
  const pinnedSections = known(value.pinnedSections, SECTIONS);
  const pinnedPlanets = known(value.pinnedPlanets, PLANETS);
  return {
    sections: order(known(value.sections, SECTIONS), SECTIONS, pinnedSections),
    pinnedSections,
    planets: order(known(value.planets, PLANETS), PLANETS, pinnedPlanets),
    pinnedPlanets,
  };
}

export async function getHomePrefs(user: SessionUser, workspaceId: string): Promise<HomePrefs> {
  if (!isUuid(workspaceId)) throw notFound('workspace');
  // Through the membership: a workspace the caller is not in is "not found", not a default layout.
  const [row] = await withUser(user, (tx) =>
    tx.query<{ prefs: unknown }>(
      `select p.prefs from public.workspace_members m
         left join public.workspace_home_prefs p on p.workspace_id = m.workspace_id and p.user_id = m.user_id
        where m.workspace_id = $1 and m.user_id = $2`,
      [workspaceId, user.id],
    ),
  ).catch(rethrowAsApiError);
  if (!row) throw notFound('workspace');
  return normalizePrefs(row.prefs);
}

/** Saves the caller's own layout for this workspace (RLS: members only, and only their row). */
export async function saveHomePrefs(user: SessionUser, workspaceId: string, prefs: z.infer<typeof homePrefsSchema>, now = new Date()): Promise<HomePrefs> {
  if (!isUuid(workspaceId)) throw notFound('workspace');
  const current = await getHomePrefs(user, workspaceId);
  const next = normalizePrefs({ ...current, ...prefs });
  await withUser(user, async (tx) => {
    const [member] = await tx.query(`select 1 from public.workspace_members where workspace_id = $1 and user_id = $2`, [workspaceId, user.id]);
    if (!member) throw notFound('workspace');
    await tx.query(
      `insert into public.workspace_home_prefs (workspace_id, user_id, prefs, updated_at) values ($1, $2, $3::jsonb, $4)
       on conflict (workspace_id, user_id) do update set prefs = excluded.prefs, updated_at = excluded.updated_at`,
      [workspaceId, user.id, JSON.stringify(next), now.toISOString()],
    );
  }).catch(rethrowAsApiError);
  return next;
}
