import { z } from 'zod';
import { managersOnly, notFound } from '@/lib/api';
import { withUser, type SessionUser, type Tx } from '@/lib/db';
import type { Locale } from '@/lib/i18n';
import { money } from '@/lib/planets';
import { isManager, roleIn } from './boss';
import { renderScript } from './rules';

export const scriptBodySchema = z.object({ body: z.string().trim().min(1).max(4000) });

export interface StageScript {
  stage_id: string;
  stage: string;
  body: string | null;
}

/** Each stage with its call script (null where the owner has written none yet). */
export async function callScripts(user: SessionUser, workspaceId: string): Promise<{ stages: StageScript[]; can_manage: boolean }> {
  return withUser(user, async (tx) => {
    const { role } = await roleIn(tx, workspaceId, user.id);
    const stages = await tx.query<StageScript>(
      `select s.id as stage_id, s.name as stage, c.body from public.pipeline_stages s
         left join public.call_scripts c on c.workspace_id = s.workspace_id and c.stage_id = s.id
        where s.workspace_id = $1 order by s.position, s.name`,
      [workspaceId],
    );
    return { stages, can_manage: isManager(role) };
  });
}

/** Writes a stage's call script; owners and admins only. */
export async function setCallScript(user: SessionUser, workspaceId: string, stageId: string, body: string, now = new Date()): Promise<StageScript> {
  return withUser(user, async (tx) => {
    const { role } = await roleIn(tx, workspaceId, user.id);
    if (!isManager(role)) throw managersOnly('manageSales');
    const [stage] = await tx.query<{ name: string }>(`select name from public.pipeline_stages where workspace_id = $1 and id = $2`, [workspaceId, stageId]);
    if (!stage) throw notFound('stage');
    await tx.query(
      `insert into public.call_scripts (workspace_id, stage_id, body, updated_at) values ($1, $2, $3, $4)
       on conflict (workspace_id, stage_id) do update set body = excluded.body, updated_at = excluded.updated_at`,
      [workspaceId, stageId, body, now.toISOString()],
    );
    return { stage_id: stageId, stage: stage.name, body };
  });
}

export interface DealScript {
  deal_id: string;
  title: string;
  stage: string;
  customer_name: string | null;
  /** For a tap-to-call link; null when the customer has no phone or the deal no customer. */
  customer_phone: string | null;
  /** The stage's script with the deal's values; null when the stage has none. */
  script: string | null;
}

/** A deal's call script, in a transaction the caller holds (the follow-up action drafts from it). */
/**
 * `say` turns the customer's full name and the deal's title into what the script says: a message to the
 * customer greets them by first name and does not repeat their name in the deal's title.
 */
export async function dealScriptIn(
  tx: Tx,
  workspaceId: string,
  dealId: string,
  workspace: { locale: Locale; timeZone: string },
  say: { customer: (name: string) => string; deal: (title: string, customer: string | null) => string } = { customer: (name) => name, deal: (title) => title },
): Promise<DealScript | null> {
  const [d] = await tx.query<{
    id: string;
    title: string;
    value_cents: string;
    stage: string;
    last_activity_at: Date;
    customer_name: string | null;
    customer_phone: string | null;
    owner_name: string | null;
    body: string | null;
  }>(
    `select d.id, d.title, d.value_cents, s.name as stage, d.last_activity_at, c.name as customer_name, c.phone as customer_phone,
            coalesce(nullif(p.display_name, ''), split_part(p.email, '@', 1)) as owner_name, cs.body
       from public.deals d
       join public.pipeline_stages s on s.workspace_id = d.workspace_id and s.id = d.stage_id
       left join public.customers c on c.workspace_id = d.workspace_id and c.id = d.customer_id
       left join public.profiles p on p.user_id = d.owner_user_id
       left join public.call_scripts cs on cs.workspace_id = d.workspace_id and cs.stage_id = d.stage_id
      where d.workspace_id = $1 and d.id = $2`,
    [workspaceId, dealId],
  );
  if (!d) return null;
  const lastContact = new Intl.DateTimeFormat(workspace.locale === 'it' ? 'it-IT' : 'en-GB', { day: 'numeric', month: 'long', timeZone: workspace.timeZone }).format(
    d.last_activity_at,
  );
  const script =
    d.body === null
      ? null
      : renderScript(d.body, {
          customer: d.customer_name ? say.customer(d.customer_name) : '',
          deal: say.deal(d.title, d.customer_name),
          value: money(Number(d.value_cents), workspace.locale),
          stage: d.stage,
          last_contact: lastContact,
          owner: d.owner_name ?? '',
        });
  return { deal_id: d.id, title: d.title, stage: d.stage, customer_name: d.customer_name, customer_phone: d.customer_phone, script };
}

/** A deal's script for a member, opened from the deal. */
export async function dealScript(user: SessionUser, workspaceId: string, dealId: string): Promise<DealScript> {
  return withUser(user, async (tx) => {
    const { timeZone, locale } = await roleIn(tx, workspaceId, user.id);
    const script = await dealScriptIn(tx, workspaceId, dealId, { timeZone, locale: locale as Locale });
    if (!script) throw notFound('deal');
    return script;
  });
}
