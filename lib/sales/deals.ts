import { z } from 'zod';
import { conflict, invalidField, notFound } from '@/lib/api';
import { withUser, type SessionUser } from '@/lib/db';
import { DEAL_STATUSES, LEAD_SOURCES, type DealStatus } from '@/lib/planets';
import { routedOwner } from './territories';

/** Closed deals stay listed this long under the board, where a mistaken won or lost can be reopened. */
export const CLOSED_SHOWN_DAYS = 30;

/** `owner`: a person's id, or `none` for deals nobody owns; absent, everyone's. */
export const boardQuerySchema = z.object({ owner: z.union([z.uuid(), z.literal('none')]).optional() });
export type BoardQuery = z.infer<typeof boardQuerySchema>;

/** A change is a move to another stage (open deals only) or a new status: won, lost, or open again. */
export const dealChangeSchema = z.union([z.object({ stageId: z.uuid() }).strict(), z.object({ status: z.enum(DEAL_STATUSES) }).strict()]);
export type DealChange = z.infer<typeof dealChangeSchema>;

export interface StageView {
  id: string;
  name: string;
  position: number;
  probability: number;
}

/** A deal as the board shows it (snake_case; the API serializer makes it camelCase). */
export interface DealView {
  id: string;
  title: string;
  value_cents: number;
  stage_id: string;
  status: DealStatus;
  owner_user_id: string | null;
  owner_name: string | null;
  created_at: Date;
  /** Whole days since the deal was opened, on the caller's clock. */
  age_days: number;
  last_activity_at: Date;
  closed_at: Date | null;
}

export interface OwnerView {
  user_id: string;
  name: string;
}

export interface PipelineBoard {
  stages: StageView[];
  /** Open deals, by stage position then the oldest activity first (the ones that need a nudge on top). */
  open: DealView[];
  /** Won and lost in the last CLOSED_SHOWN_DAYS, newest first. */
  closed: DealView[];
  /** Everyone who owns a deal or may own one: the workspace's members. */
  owners: OwnerView[];
}

/** A deal as the board shows it; `now` names the query parameter that holds the caller's clock. */
const view = (now: string) => `select d.id, d.title, d.value_cents, d.stage_id, d.status, d.owner_user_id,
                     coalesce(nullif(p.display_name, ''), split_part(p.email, '@', 1)) as owner_name,
                     d.created_at, floor(extract(epoch from (${now}::timestamptz - d.created_at)) / 86400)::int as age_days,
                     d.last_activity_at, d.closed_at
                from public.deals d
                left join public.profiles p on p.user_id = d.owner_user_id`;

/** The pipeline of a workspace, for a member (RLS): stages, open and recently closed deals, who owns them. */
export async function pipelineBoard(user: SessionUser, workspaceId: string, query: BoardQuery, now = new Date()): Promise<PipelineBoard> {
  return withUser(user, async (tx) => {
    const [member] = await tx.query(`select 1 from public.workspace_members where workspace_id = $1 and user_id = $2`, [workspaceId, user.id]);
    if (!member) throw notFound('workspace');
    const owner = query.owner ?? null;
    const ownerFilter = `($2::text is null or ($2 = 'none' and d.owner_user_id is null) or d.owner_user_id::text = $2)`;
    const stages = await tx.query<StageView>(
      `select id, name, position, probability from public.pipeline_stages where workspace_id = $1 order by position, name`,
      [workspaceId],
    );
    const open = await tx.query<DealView>(
      `${view('$3')} join public.pipeline_stages s on s.workspace_id = d.workspace_id and s.id = d.stage_id
        where d.workspace_id = $1 and d.status = 'open' and ${ownerFilter}
        order by s.position, d.last_activity_at, d.id`,
      [workspaceId, owner, now.toISOString()],
    );
    const closed = await tx.query<DealView>(
      `${view('$3')} where d.workspace_id = $1 and d.status <> 'open' and d.closed_at >= $3::timestamptz - make_interval(days => $4) and ${ownerFilter}
        order by d.closed_at desc, d.id`,
      [workspaceId, owner, now.toISOString(), CLOSED_SHOWN_DAYS],
    );
    const owners = await tx.query<OwnerView>(
      `select m.user_id, coalesce(nullif(p.display_name, ''), split_part(p.email, '@', 1)) as name
         from public.workspace_members m join public.profiles p on p.user_id = m.user_id
        where m.workspace_id = $1 order by lower(coalesce(nullif(p.display_name, ''), p.email))`,
      [workspaceId],
    );
    return { stages, open, closed, owners };
  });
}

/**
 * Moves a deal to another stage, or marks it won, lost or open again, as a member (RLS: any member
 * of the workspace may, whoever owns the deal). Either counts as activity on the deal. Asking for what
 * already holds (the stage it is in, the status it has) changes nothing, so a retry is harmless.
 */
export async function changeDeal(user: SessionUser, workspaceId: string, dealId: string, change: DealChange, now = new Date()): Promise<DealView> {
  return withUser(user, async (tx) => {
    const [deal] = await tx.query<{ status: DealStatus; stage_id: string }>(
      `select status, stage_id from public.deals where workspace_id = $1 and id = $2 for update`,
      [workspaceId, dealId],
    );
    if (!deal) throw notFound('deal');
    if ('stageId' in change) {
      if (change.stageId !== deal.stage_id) {
        if (deal.status !== 'open') throw conflict('api.deals.closed');
        const [stage] = await tx.query(`select 1 from public.pipeline_stages where workspace_id = $1 and id = $2`, [workspaceId, change.stageId]);
        if (!stage) throw invalidField('stageId', 'api.deals.noSuchStage');
        await tx.query(`update public.deals set stage_id = $3, last_activity_at = $4 where workspace_id = $1 and id = $2`, [
          workspaceId,
          dealId,
          change.stageId,
          now.toISOString(),
        ]);
      }
    } else if (change.status !== deal.status) {
      await tx.query(
        `update public.deals set status = $3, closed_at = case when $3 = 'open' then null else $4::timestamptz end, last_activity_at = $4
          where workspace_id = $1 and id = $2`,
        [workspaceId, dealId, change.status, now.toISOString()],
      );
    }
    const [changed] = await tx.query<DealView>(`${view('$3')} where d.workspace_id = $1 and d.id = $2`, [workspaceId, dealId, now.toISOString()]);
    return changed!;
  });
}

const optionalText = (max: number) => z.string().trim().min(1).max(max).optional();

/** A new open deal; where it comes from (postcode, city, sector, source) decides its owner by the active territories. */
export const dealCreateSchema = z
  .object({
    title: z.string().trim().min(1).max(160),
    valueCents: z.number().int().min(0).max(100_000_000_000),
    /** Absent: the first stage. */
    stageId: z.uuid().optional(),
    customerId: z.uuid().optional(),
    product: optionalText(80),
    postcode: optionalText(16),
    city: optionalText(80),
    sector: optionalText(60),
    source: z.enum(LEAD_SOURCES).optional(),
  })
  .strict();
export type DealCreate = z.infer<typeof dealCreateSchema>;

/**
 * Opens a deal, as any member (RLS), owned by whoever the active territory model routes it to; with no
 * active model or no matching rule it starts unassigned, for someone to pick up from the board.
 */
export async function createDeal(user: SessionUser, workspaceId: string, input: DealCreate, now = new Date()): Promise<DealView & { territory: string | null }> {
  return withUser(user, async (tx) => {
    const [member] = await tx.query(`select 1 from public.workspace_members where workspace_id = $1 and user_id = $2`, [workspaceId, user.id]);
    if (!member) throw notFound('workspace');
    const [stage] = await tx.query<{ id: string }>(
      `select id from public.pipeline_stages where workspace_id = $1 and ($2::uuid is null or id = $2) order by position, name limit 1`,
      [workspaceId, input.stageId ?? null],
    );
    if (!stage) throw invalidField('stageId', 'api.deals.noSuchStage');
    if (input.customerId) {
      const [customer] = await tx.query(`select 1 from public.customers where workspace_id = $1 and id = $2`, [workspaceId, input.customerId]);
      if (!customer) throw invalidField('customerId', 'api.deals.noSuchCustomer');
    }
    const place = { postcode: input.postcode ?? null, city: input.city ?? null, sector: input.sector ?? null, source: input.source ?? null };
    const territory = await routedOwner(tx, workspaceId, place);
    const [created] = await tx.query<{ id: string }>(
      `insert into public.deals (workspace_id, title, customer_id, owner_user_id, stage_id, value_cents, product, postcode, city, sector, source, last_activity_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) returning id`,
      [workspaceId, input.title, input.customerId ?? null, territory?.ownerUserId ?? null, stage.id, input.valueCents, input.product ?? null,
        place.postcode, place.city, place.sector, place.source, now.toISOString()],
    );
    const [deal] = await tx.query<DealView>(`${view('$3')} where d.workspace_id = $1 and d.id = $2`, [workspaceId, created!.id, now.toISOString()]);
    return { ...deal!, territory: territory?.name ?? null };
  });
}
