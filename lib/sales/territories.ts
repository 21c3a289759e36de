import { z } from 'zod';
import { managersOnly, notFound, invalidField, rethrowAsApiError } from '@/lib/api';
import { withUser, type SessionUser, type Tx } from '@/lib/db';
import { isManager, roleIn } from './boss';
import { routeTo, territoryRulesSchema, type Routable, type RoutingTerritory, type TerritoryRule } from './rules';

export interface TerritoryView extends RoutingTerritory {
  ownerName: string;
  position: number;
}

export interface TerritoryModelView {
  id: string;
  name: string;
  active: boolean;
  territories: TerritoryView[];
}

/** A lead or an open deal that the rules give to someone other than its owner. */
export interface Move {
  kind: 'deal' | 'lead';
  id: string;
  title: string;
  fromUserId: string | null;
  fromName: string | null;
  toUserId: string;
  toName: string;
  territory: string;
}

export interface TerritoriesView {
  models: TerritoryModelView[];
  /** Under the active model: what is not with the owner its territory names (nothing when it is all in place). */
  outOfPlace: Move[];
  canManage: boolean;
}

const NAME = `coalesce(nullif(p.display_name, ''), split_part(p.email, '@', 1))`;

async function loadModels(tx: Tx, workspaceId: string): Promise<TerritoryModelView[]> {
  const models = await tx.query<{ id: string; name: string; active: boolean }>(
    `select id, name, active from public.sales_territory_models where workspace_id = $1 order by active desc, lower(name)`,
    [workspaceId],
  );
  const territories = await tx.query<{ id: string; model_id: string; name: string; owner_user_id: string; owner_name: string; position: number; rules: TerritoryRule[] }>(
    `select t.id, t.model_id, t.name, t.owner_user_id, ${NAME} as owner_name, t.position, t.rules
       from public.sales_territories t join public.profiles p on p.user_id = t.owner_user_id
      where t.workspace_id = $1 order by t.position, lower(t.name)`,
    [workspaceId],
  );
  return models.map((m) => ({
    ...m,
    territories: territories
      .filter((t) => t.model_id === m.id)
      .map((t) => ({ id: t.id, name: t.name, ownerUserId: t.owner_user_id, ownerName: t.owner_name, position: t.position, rules: territoryRulesSchema.catch([]).parse(t.rules) })),
  }));
}

/** Open deals and leads not yet converted or lost: the records territories route (closed ones keep their credit). */
async function routable(tx: Tx, workspaceId: string) {
  return tx.query<Routable & { kind: 'deal' | 'lead'; id: string; title: string; owner_user_id: string | null; owner_name: string | null }>(
    `select 'deal' as kind, d.id, d.title, d.owner_user_id, ${NAME} as owner_name, d.postcode, d.city, d.sector, d.source
       from public.deals d left join public.profiles p on p.user_id = d.owner_user_id
      where d.workspace_id = $1 and d.status = 'open'
     union all
     select 'lead', l.id, l.name, l.owner_user_id, ${NAME}, l.postcode, l.city, l.sector, l.source
       from public.leads l left join public.profiles p on p.user_id = l.owner_user_id
      where l.workspace_id = $1 and l.status in ('new', 'contacted')
     order by 1, 3, 2`,
    [workspaceId],
  );
}

/** What the territories would move: each routable record whose territory's owner is not its owner. */
async function movesUnder(tx: Tx, workspaceId: string, territories: TerritoryView[]): Promise<Move[]> {
  const moves: Move[] = [];
  for (const record of await routable(tx, workspaceId)) {
    const to = routeTo(territories, record);
    if (!to || to.ownerUserId === record.owner_user_id) continue;
    moves.push({
      kind: record.kind,
      id: record.id,
      title: record.title,
      fromUserId: record.owner_user_id,
      fromName: record.owner_name,
      toUserId: to.ownerUserId,
      toName: to.ownerName,
      territory: to.name,
    });
  }
  return moves;
}

async function applyMoves(tx: Tx, workspaceId: string, moves: Move[]) {
  for (const move of moves) {
    await tx.query(`update public.${move.kind === 'deal' ? 'deals' : 'leads'} set owner_user_id = $3 where workspace_id = $1 and id = $2`, [
      workspaceId,
      move.id,
      move.toUserId,
    ]);
  }
}

/** The territory models, and what is out of place under the active one. */
export async function territoriesView(user: SessionUser, workspaceId: string): Promise<TerritoriesView> {
  return withUser(user, async (tx) => {
    const { role } = await roleIn(tx, workspaceId, user.id);
    const models = await loadModels(tx, workspaceId);
    const active = models.find((m) => m.active);
    return { models, outOfPlace: active ? await movesUnder(tx, workspaceId, active.territories) : [], canManage: isManager(role) };
  });
}

export const territoryChangeSchema = z.object({
  name: z.string().trim().min(1).max(80).optional(),
  ownerUserId: z.uuid().optional(),
  rules: territoryRulesSchema.optional(),
  /** false (the default): only say what would move. */
  apply: z.boolean().default(false),
});

export interface RoutingChange {
  applied: boolean;
  /** Whether the change touches the active model (else nothing moves, whatever the rules). */
  activeModel: boolean;
  moves: Move[];
}

/**
 * Changes a territory's name, owner or rules: with `apply: false` nothing is written and the answer is
 * what would move; with `apply: true` the change and the moves happen in one transaction. Owners and
 * admins only.
 */
export async function changeTerritory(
  user: SessionUser,
  workspaceId: string,
  territoryId: string,
  change: z.infer<typeof territoryChangeSchema>,
): Promise<RoutingChange> {
  return withUser(user, async (tx) => {
    const { role } = await roleIn(tx, workspaceId, user.id);
    if (!isManager(role)) throw managersOnly('manageSales');
    const models = await loadModels(tx, workspaceId);
    const model = models.find((m) => m.territories.some((t) => t.id === territoryId));
    if (!model) throw notFound('territory');
    const ownerName = change.ownerUserId ? await memberName(tx, workspaceId, change.ownerUserId) : undefined;
    const proposed = model.territories.map((t) =>
      t.id === territoryId
        ? { ...t, name: change.name ?? t.name, rules: change.rules ?? t.rules, ownerUserId: change.ownerUserId ?? t.ownerUserId, ownerName: ownerName ?? t.ownerName }
        : t,
    );
    const moves = model.active ? await movesUnder(tx, workspaceId, proposed) : [];
    if (!change.apply) return { applied: false, activeModel: model.active, moves };
    try {
      await tx.query(
        `update public.sales_territories set name = coalesce($3, name), owner_user_id = coalesce($4, owner_user_id), rules = coalesce($5::jsonb, rules)
          where workspace_id = $1 and id = $2`,
        [workspaceId, territoryId, change.name ?? null, change.ownerUserId ?? null, change.rules ? JSON.stringify(change.rules) : null],
      );
    } catch (error) {
      rethrowAsApiError(error);
    }
    await applyMoves(tx, workspaceId, moves);
    return { applied: true, activeModel: model.active, moves };
  });
}

export const territoryCreateSchema = z.object({
  name: z.string().trim().min(1).max(80),
  ownerUserId: z.uuid(),
  rules: territoryRulesSchema,
  /** false (the default): only say what would move. */
  apply: z.boolean().default(false),
});

async function memberName(tx: Tx, workspaceId: string, userId: string): Promise<string> {
  const [owner] = await tx.query<{ name: string }>(
    `select ${NAME} as name from public.workspace_members m join public.profiles p on p.user_id = m.user_id where m.workspace_id = $1 and m.user_id = $2`,
    [workspaceId, userId],
  );
  if (!owner) throw invalidField('ownerUserId', 'api.sales.notAMember');
  return owner.name;
}

/**
 * Adds a territory at the end of a model's order: with `apply: false` the answer is what it would move
 * (under the active model) and nothing is written; with `apply: true` the territory and the moves are
 * written in one transaction. Owners and admins only.
 */
export async function createTerritory(
  user: SessionUser,
  workspaceId: string,
  modelId: string,
  input: z.infer<typeof territoryCreateSchema>,
): Promise<RoutingChange & { territoryId: string | null }> {
  return withUser(user, async (tx) => {
    const { role } = await roleIn(tx, workspaceId, user.id);
    if (!isManager(role)) throw managersOnly('manageSales');
    const model = (await loadModels(tx, workspaceId)).find((m) => m.id === modelId);
    if (!model) throw notFound('territoryModel');
    const position = Math.max(-1, ...model.territories.map((t) => t.position)) + 1;
    const territory: TerritoryView = { id: '', name: input.name, ownerUserId: input.ownerUserId, ownerName: await memberName(tx, workspaceId, input.ownerUserId), position, rules: input.rules };
    const moves = model.active ? await movesUnder(tx, workspaceId, [...model.territories, territory]) : [];
    if (!input.apply) return { applied: false, activeModel: model.active, moves, territoryId: null };
    let created: { id: string } | undefined;
    try {
      [created] = await tx.query<{ id: string }>(
        `insert into public.sales_territories (workspace_id, model_id, name, owner_user_id, position, rules) values ($1, $2, $3, $4, $5, $6::jsonb) returning id`,
        [workspaceId, modelId, input.name, input.ownerUserId, position, JSON.stringify(input.rules)],
      );
    } catch (error) {
      rethrowAsApiError(error);
    }
    await applyMoves(tx, workspaceId, moves);
    return { applied: true, activeModel: model.active, moves, territoryId: created!.id };
  });
}

export const territoryModelSchema = z.object({ name: z.string().trim().min(1).max(80) });

/** A new, empty territory model; the workspace's first one is made the active one (with no territory it moves nothing). */
export async function createTerritoryModel(user: SessionUser, workspaceId: string, input: z.infer<typeof territoryModelSchema>) {
  return withUser(user, async (tx) => {
    const { role } = await roleIn(tx, workspaceId, user.id);
    if (!isManager(role)) throw managersOnly('manageSales');
    try {
      const [model] = await tx.query<{ id: string; name: string; active: boolean }>(
        `insert into public.sales_territory_models (workspace_id, name, active)
         values ($1, $2, not exists (select 1 from public.sales_territory_models where workspace_id = $1 and active)) returning id, name, active`,
        [workspaceId, input.name],
      );
      return { ...model!, territories: [] };
    } catch (error) {
      rethrowAsApiError(error);
    }
  });
}

/** The owner the active model's rules give a new record, or null (no active model, or no rule matches). */
export async function routedOwner(tx: Tx, workspaceId: string, record: Routable): Promise<TerritoryView | null> {
  const active = (await loadModels(tx, workspaceId)).find((m) => m.active);
  return active ? routeTo(active.territories, record) : null;
}

export const activateModelSchema = z.object({ modelId: z.uuid(), apply: z.boolean().default(false) });

/** Makes another model the active one: the preview (apply false) or the switch with its moves (apply true). */
export async function activateModel(user: SessionUser, workspaceId: string, input: z.infer<typeof activateModelSchema>): Promise<RoutingChange> {
  return withUser(user, async (tx) => {
    const { role } = await roleIn(tx, workspaceId, user.id);
    if (!isManager(role)) throw managersOnly('manageSales');
    const model = (await loadModels(tx, workspaceId)).find((m) => m.id === input.modelId);
    if (!model) throw invalidField('modelId', 'api.sales.noSuchModel');
    const moves = await movesUnder(tx, workspaceId, model.territories);
    if (!input.apply) return { applied: false, activeModel: true, moves };
    await tx.query(`update public.sales_territory_models set active = false where workspace_id = $1 and active and id <> $2`, [workspaceId, model.id]);
    await tx.query(`update public.sales_territory_models set active = true where workspace_id = $1 and id = $2`, [workspaceId, model.id]);
    await applyMoves(tx, workspaceId, moves);
    return { applied: true, activeModel: true, moves };
  });
}
