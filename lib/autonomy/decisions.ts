import {
  ACTION_PLANET,
  ACTIONS,
  cancelQueuedMessages,
  CONNECTION_ACTIONS,
  hashArgs,
  isConnectionAction,
  loadActionWorkspace,
  type ActionContext,
  type ActionType,
  type Channel,
  type Executed,
  type ExecutionResult,
  type MessageStatus,
} from '@/lib/actions';
import { ApiError, conflict, isUuid, notFound, rethrowAsApiError } from '@/lib/api';
import { channelConnectedSql } from '@/lib/channels';
import { asService, elevated, withUser, type SessionUser, type Tx } from '@/lib/db';
import { sendEvent } from '@/lib/events';
import type { Planet } from '@/lib/planets';
import { requireManager, roleIn } from './roles';
import { promotionSuggestions } from './settings';
import { actionTier, type Tier } from './tier';

export const DECISION_STATUSES = ['proposed', 'approved', 'rejected', 'executed', 'failed', 'expired', 'undone'] as const;
export type DecisionStatus = (typeof DECISION_STATUSES)[number];
/** How a decision was taken: it waited for a person's OK, or ran on its own. */
export const DECISION_TIERS = ['propose', 'auto'] as const;
export type DecisionTier = (typeof DECISION_TIERS)[number];

export interface DecisionRow {
  id: string;
  workspace_id: string;
  planet: Planet;
  action_type: ActionType;
  args: Record<string, unknown>;
  args_hash: string;
  details: Record<string, unknown>;
  dedupe_key: string;
  tier: DecisionTier;
  status: DecisionStatus;
  trigger: string;
  agent_run_id: string | null;
  insight_id: string | null;
  expires_at: Date;
  decided_by: string | null;
  decided_at: Date | null;
  executed_at: Date | null;
  result: ExecutionResult | null;
  error: string | null;
  undone_by: string | null;
  undone_at: Date | null;
  created_at: Date;
}

/** What a caller (the analysis, a flow, an agent tool) asks for. */
export interface ActionRequest {
  workspaceId: string;
  type: ActionType;
  input: unknown;
  /** What started it: 'cron:analyze_planet_data', 'event:booking/created', 'agent:<tool>'. */
  trigger: string;
  agentRunId?: string | null;
  insightId?: string | null;
  now: Date;
  /**
   * The tier the caller saw. A request never runs at a higher tier than this: an agent told to propose
   * does not execute because autonomy was raised meanwhile, and a tool told it may execute only
   * proposes if autonomy was lowered.
   */
  expect?: DecisionTier;
}

export type SubmitOutcome =
  | { status: 'skipped'; tier: 'paused' | 'off'; reason: string }
  | { status: 'not_applicable'; reason: string }
  | { status: 'duplicate'; decisionId: string; existing: DecisionStatus }
  | { status: 'proposed'; decisionId: string; argsHash: string; expiresAt: Date }
  | { status: 'executed'; decisionId: string; result: ExecutionResult }
  | { status: 'failed'; decisionId: string; error: string };

/** A decision recorded to run now: the caller carries it out (in its transaction, or after it commits for a connected account). */
type Recorded = Exclude<SubmitOutcome, { status: 'executed' | 'failed' }> | { status: 'claimed'; decision: DecisionRow; ctx: ActionContext };

const TIER_REASON: Record<'paused' | 'off', (planet: string) => string> = {
  paused: () => 'Agents are paused by a kill switch: nothing was proposed or done.',
  off: (planet) => `Autonomy for the ${planet} planet is off: it neither proposes nor acts.`,
};

/**
 * The one door every write action goes through (service code, in the caller's transaction): the
 * autonomy tier decides between doing nothing, recording a proposal and executing at once. Proposing
 * is idempotent on the action's dedupe key; an automatic execution is recorded as an executed
 * decision, so it shows in "Done".
 */
export async function submitAction(tx: Tx, request: ActionRequest): Promise<SubmitOutcome> {
  const recorded = await record(tx, request);
  if (recorded.status !== 'claimed') return recorded;
  return settled(recorded.decision.id, await executeDecision(tx, recorded.ctx, recorded.decision));
}

/**
 * `submitAction` in transactions of its own, for an agent's call (the write gate, the action tools): a
 * write on a connected account that runs now is claimed by its executed-to-be decision, which commits
 * first, and only then is its provider called, so a second call finds the decision and never sends twice.
 */
export async function submitAgentAction(request: ActionRequest): Promise<SubmitOutcome> {
  if (!isConnectionAction(request.type)) return asService((tx) => submitAction(tx, request));
  const recorded = await asService((tx) => record(tx, request));
  if (recorded.status !== 'claimed') return recorded;
  return settled(recorded.decision.id, await performDecision(recorded.ctx, recorded.decision));
}

const settled = (decisionId: string, done: Executed): SubmitOutcome =>
  done.ok ? { status: 'executed', decisionId, result: done.result } : { status: 'failed', decisionId, error: done.error };

/** The tier's call and, unless nothing is to happen, the decision row: proposed (with its push) or claimed to run now. */
async function record(tx: Tx, request: ActionRequest): Promise<Recorded> {
  const planet = ACTION_PLANET[request.type];
  const tier = await actionTier(tx, request.workspaceId, request.type);
  if (tier === 'paused' || tier === 'off') return { status: 'skipped', tier, reason: TIER_REASON[tier](planet) };
  const workspace = await loadActionWorkspace(tx, request.workspaceId);
  if (!workspace) return { status: 'not_applicable', reason: 'The workspace no longer exists.' };
  const ctx: ActionContext = { workspace, now: request.now };
  const definition = isConnectionAction(request.type) ? CONNECTION_ACTIONS[request.type] : ACTIONS[request.type];
  const prepared = await definition.prepare(tx, ctx, request.input as never);
  if (!prepared.ok) return { status: 'not_applicable', reason: prepared.reason };

  const { action } = prepared;
  const auto = tier === 'auto' && request.expect !== 'propose';
  const argsHash = hashArgs(action.type, action.args);
  const [row] = await tx.query<DecisionRow>(
    `insert into public.agent_decisions
       (workspace_id, planet, action_type, args, args_hash, details, dedupe_key, tier, status, trigger, agent_run_id, insight_id,
        expires_at, created_at)
     values ($1, $2, $3, $4::jsonb, $5, $6::jsonb, $7, $8, $9, $10, $11, $12, $13, $14)
     on conflict (workspace_id, dedupe_key) do nothing
     returning *`,
    [
      request.workspaceId, planet, action.type, JSON.stringify(action.args), argsHash, JSON.stringify(action.details), action.dedupeKey,
      auto ? 'auto' : 'propose', auto ? 'approved' : 'proposed', request.trigger, request.agentRunId ?? null, request.insightId ?? null,
      action.expiresAt.toISOString(), request.now.toISOString(),
    ],
  );
  if (!row) {
    const [existing] = await tx.query<{ id: string; status: DecisionStatus }>(
      `select id, status from public.agent_decisions where workspace_id = $1 and dedupe_key = $2`,
      [request.workspaceId, action.dedupeKey],
    );
    return { status: 'duplicate', decisionId: existing!.id, existing: existing!.status };
  }
  if (!auto) {
    // With the proposal, so its push exists exactly when it does, and never delays whoever proposed it.
    await sendEvent({ name: 'decisions/proposed', data: { workspaceId: request.workspaceId, decisionId: row.id } }, tx);
    return { status: 'proposed', decisionId: row.id, argsHash, expiresAt: action.expiresAt };
  }
  return { status: 'claimed', decision: row, ctx };
}

const CHANGED = 'The proposal was changed after it was made, so it was not carried out.';
const unchanged = (decision: DecisionRow) => hashArgs(decision.action_type, decision.args) === decision.args_hash;

/**
 * Executes an approved decision in the caller's transaction: the stored arguments must still hash to
 * the stored hash (what was approved is exactly what runs), then the action re-checks the world and
 * acts. The decision ends `executed` or `failed`; its insight, if any, becomes `actioned`.
 */
async function executeDecision(tx: Tx, ctx: ActionContext, decision: DecisionRow): Promise<Executed> {
  const type = decision.action_type;
  // A provider is never called inside someone's transaction (see ConnectionActionDefinition).
  if (isConnectionAction(type)) throw new Error(`${type} calls a provider: it runs through submitAgentAction or an approval, after its decision commits.`);
  const outcome: Executed = unchanged(decision) ? await ACTIONS[type].execute(tx, ctx, decision.args, decision.id) : { ok: false, error: CHANGED };
  await settle(tx, ctx, decision, outcome);
  return outcome;
}

/**
 * Carries out an approved decision on a connected account, after the transaction that approved it has
 * committed (nothing is locked while the provider answers), then records how it ended in one of its own.
 * Only the caller that moved the decision to `approved` calls this, so the provider is called once.
 */
async function performDecision(ctx: ActionContext, decision: DecisionRow): Promise<Executed> {
  const type = decision.action_type;
  if (!isConnectionAction(type)) throw new Error(`${type} is carried out in its decision's transaction (executeDecision).`);
  const outcome: Executed = unchanged(decision) ? await CONNECTION_ACTIONS[type].perform(ctx, decision.args) : { ok: false, error: CHANGED };
  await asService((tx) => settle(tx, ctx, decision, outcome));
  return outcome;
}

async function settle(tx: Tx, ctx: ActionContext, decision: DecisionRow, outcome: Executed) {
  if (outcome.ok) {
    await tx.query(`update public.agent_decisions set status = 'executed', executed_at = $2, result = $3::jsonb where id = $1`, [
      decision.id,
      ctx.now.toISOString(),
      JSON.stringify(outcome.result),
    ]);
    if (decision.insight_id) {
      await tx.query(`update public.workspace_insights set status = 'actioned', updated_at = $2 where id = $1 and status in ('new', 'seen')`, [
        decision.insight_id,
        ctx.now.toISOString(),
      ]);
    }
    return;
  }
  await tx.query(`update public.agent_decisions set status = 'failed', error = $2 where id = $1`, [decision.id, outcome.error.slice(0, 500)]);
}

/** A person's approval, as the Home needs it back. */
export interface ApprovalResult {
  decisionId: string;
  status: 'executed';
  /** Where its message is now (`queued` while no provider is connected): what the Home tells the person. */
  delivery: DecisionView['delivery'];
  /** Whether undo can take it back: not a write a connected account's provider has already carried out. */
  undoable: boolean;
  /** Set when this approval makes the action type eligible for "do this automatically". */
  suggestion: { actionType: ActionType; approvals: number } | null;
}

const loadForUpdate = async (tx: Tx, workspaceId: string, decisionId: string) => {
  if (!isUuid(decisionId)) return undefined;
  const [row] = await tx.query<DecisionRow>(`select * from public.agent_decisions where id = $1 and workspace_id = $2 for update`, [
    decisionId,
    workspaceId,
  ]);
  return row;
};

/**
 * The decision, locked, in a person's transaction. With the service's rights: a lock is an update's,
 * and people may update only a proposal still waiting, while a decided one must be read to say so.
 */
const lockDecision = (tx: Tx, workspaceId: string, decisionId: string) => elevated(tx, (service) => loadForUpdate(service, workspaceId, decisionId));

/** A proposal past its expiry closes: the app's clock decides, not the person who came too late. */
const expire = (tx: Tx, decisionId: string) =>
  elevated(tx, (service) => service.query(`update public.agent_decisions set status = 'expired' where id = $1`, [decisionId]));

/**
 * Approves a proposal and executes it, exactly once. `argsHash` is the hash the person was shown: a
 * different one means they approved something else, and nothing runs. The row is locked, so of two
 * concurrent approvals one executes and the other finds it already done. A proposal past its expiry
 * becomes `expired` (terminal) and never runs; a kill switch or autonomy `off` refuses and leaves it
 * waiting.
 */
export async function approveDecision(
  user: SessionUser,
  workspaceId: string,
  decisionId: string,
  { argsHash, now = new Date() }: { argsHash: string; now?: Date },
): Promise<ApprovalResult> {
  type Outcome = Executed | { kind: 'claimed'; decision: DecisionRow; ctx: ActionContext } | { kind: 'expired'; at: Date };
  const approved = await withUser(user, async (tx): Promise<Outcome> => {
    await requireManager(tx, user, workspaceId, 'approveProposals');
    const decision = await lockDecision(tx, workspaceId, decisionId);
    if (!decision) throw notFound('proposal');
    if (decision.status !== 'proposed') throw conflict(`api.decisions.proposal.${decision.status}`, undefined, { status: decision.status });
    if (decision.args_hash !== argsHash) {
      throw conflict('api.decisions.notWhatYouSaw');
    }
    if (decision.expires_at.getTime() <= now.getTime()) {
      await expire(tx, decision.id);
      return { kind: 'expired', at: decision.expires_at };
    }
    await refuseWhenStopped(tx, decision);
    // The person's decision, as the person (RLS: agent_decisions_decide); carrying it out is the server's.
    await tx.query(`update public.agent_decisions set status = 'approved', decided_by = $2, decided_at = $3 where id = $1`, [
      decision.id,
      user.id,
      now.toISOString(),
    ]);
    return elevated(tx, async (service): Promise<Outcome> => {
      const ctx = { workspace: (await loadActionWorkspace(service, workspaceId))!, now };
      // A connected account's provider is called once this approval has committed (see performDecision).
      if (isConnectionAction(decision.action_type)) return { kind: 'claimed', decision, ctx };
      return executeDecision(service, ctx, decision);
    });
  }).catch(rethrowAsApiError);

  if ('kind' in approved && approved.kind === 'expired') {
    throw new ApiError('gone', 'api.decisions.expiredOn', { at: approved.at.toISOString() }, { details: { status: 'expired' } });
  }
  const outcome = 'kind' in approved ? await performDecision(approved.ctx, approved.decision) : approved;
  if (!outcome.ok) throw conflict('api.decisions.failed', { reason: outcome.error }, { status: 'failed' });
  const [decision] = await withUser(user, (tx) =>
    tx.query<Pick<DecisionView, 'action_type' | 'delivery'>>(`select d.action_type, m.delivery from public.agent_decisions d ${decisionJoin()} where d.id = $1`, [decisionId]),
  );
  const suggestions = await promotionSuggestions(user, workspaceId);
  const suggestion = suggestions.find((s) => s.actionType === decision?.action_type) ?? null;
  return { decisionId, status: 'executed', delivery: decision?.delivery ?? null, undoable: !('kind' in approved), suggestion };
}

/** A kill switch or autonomy `off` keeps a proposal from running; it stays proposed for later. */
async function refuseWhenStopped(tx: Tx, decision: DecisionRow) {
  const tier: Tier = await actionTier(tx, decision.workspace_id, decision.action_type);
  if (tier === 'paused') throw conflict('api.decisions.paused');
  if (tier === 'off') throw conflict(`api.decisions.planetOff.${decision.planet}`);
}

/** "Ignore": the proposal is closed and never runs. */
export async function rejectDecision(user: SessionUser, workspaceId: string, decisionId: string, now = new Date()): Promise<{ decisionId: string; status: 'rejected' | 'expired' }> {
  return withUser(user, async (tx) => {
    await requireManager(tx, user, workspaceId, 'ignoreProposals');
    const decision = await lockDecision(tx, workspaceId, decisionId);
    if (!decision) throw notFound('proposal');
    if (decision.status !== 'proposed') throw conflict(`api.decisions.proposal.${decision.status}`, undefined, { status: decision.status });
    if (decision.expires_at.getTime() <= now.getTime()) {
      await expire(tx, decision.id);
      return { decisionId, status: 'expired' as const };
    }
    // As the person (RLS: agent_decisions_decide).
    await tx.query(`update public.agent_decisions set status = 'rejected', decided_by = $2, decided_at = $3 where id = $1`, [
      decision.id,
      user.id,
      now.toISOString(),
    ]);
    return { decisionId, status: 'rejected' as const };
  }).catch(rethrowAsApiError);
}

/**
 * Takes back the last step of a decision while nothing has left the app:
 * - an ignored proposal waits for an OK again (until it expires);
 * - an executed action whose messages are all still queued has them cancelled and reverts what it
 *   changed (the reminder mark, the waitlist offer, the deal's activity). A proposal a person approved
 *   goes back to "Needs your OK", as it was, until it expires; an automatic action, or one whose
 *   proposal has expired, ends `undone`.
 * Once a message is past `queued` (a provider has it), nothing can be undone; nor can a write on a
 * connected account, which its provider carried out at once.
 *
 * All of it is the server's, after the role check here: reversing an execution writes the outbox and
 * marks no person writes, and people may only decide a waiting proposal (agent_decisions_decide), never
 * move a decided one back.
 */
export async function undoDecision(user: SessionUser, workspaceId: string, decisionId: string, now = new Date()): Promise<{ decisionId: string; status: 'proposed' | 'undone' }> {
  return withUser(user, async (tx) => {
    await requireManager(tx, user, workspaceId, 'undoActions');
    return elevated(tx, async (service) => {
      const decision = await loadForUpdate(service, workspaceId, decisionId);
      if (!decision) throw notFound('action');
      const open = decision.expires_at.getTime() > now.getTime();
      if (decision.status === 'rejected') {
        if (!open) throw conflict('api.decisions.expiredCannotReturn', undefined, { status: 'expired' });
        await reopen(service, decision.id, user, now);
        return { decisionId, status: 'proposed' as const };
      }
      if (decision.status !== 'executed') throw conflict(`api.decisions.cannotUndo.${decision.status}`, undefined, { status: decision.status });
      if (isConnectionAction(decision.action_type)) throw conflict('api.decisions.doneAtProvider');
      const messageIds = decision.result?.messageIds ?? [];
      const messages = await service.query<{ id: string; status: string }>(
        `select id, status from public.outbox_messages where workspace_id = $1 and id = any ($2::uuid[]) for update`,
        [workspaceId, messageIds],
      );
      if (messages.some((m) => m.status !== 'queued')) throw conflict('api.decisions.withProvider');
      await cancelQueuedMessages(service, { workspaceId, messageIds }, now, 'Undone before it was sent.');
      const workspace = (await loadActionWorkspace(service, workspaceId))!;
      await ACTIONS[decision.action_type].undo(service, { workspace, now }, decision.args, decision.result!);
      if (decision.tier === 'propose' && open) {
        await reopen(service, decision.id, user, now);
        return { decisionId, status: 'proposed' as const };
      }
      await service.query(`update public.agent_decisions set status = 'undone', undone_by = $2, undone_at = $3 where id = $1`, [
        decision.id,
        user.id,
        now.toISOString(),
      ]);
      return { decisionId, status: 'undone' as const };
    });
  }).catch(rethrowAsApiError);
}

/** Back to "Needs your OK" with the same arguments and hash, as if nobody had decided; the undo is kept. */
async function reopen(tx: Tx, decisionId: string, user: SessionUser, now: Date) {
  await tx.query(
    `update public.agent_decisions
        set status = 'proposed', decided_by = null, decided_at = null, executed_at = null, result = null, error = null, undone_by = $2, undone_at = $3
      where id = $1`,
    [decisionId, user.id, now.toISOString()],
  );
}

/** Closes proposals nobody decided in time (the hourly sweep; approval checks expiry itself too). */
export async function expireDecisions(now = new Date()): Promise<number> {
  const rows = await asService((tx) =>
    tx.query(`update public.agent_decisions set status = 'expired' where status = 'proposed' and expires_at <= $1 returning 1`, [now.toISOString()]),
  );
  return rows.length;
}

/** A decision as the API and the UI show it (camelCased by the serializer). */
export interface DecisionView {
  id: string;
  planet: Planet;
  action_type: ActionType;
  tier: DecisionTier;
  status: DecisionStatus;
  args_hash: string;
  /** The channel, recipient and exact text of what it sends; null where it has none (a calendar event has no text, GitHub no recipient). */
  channel: Channel | null;
  to: string | null;
  message: string | null;
  details: Record<string, unknown>;
  trigger: string;
  expires_at: Date;
  created_at: Date;
  decided_at: Date | null;
  executed_at: Date | null;
  error: string | null;
  /** Executed, and every message it queued is still queued. */
  undoable: boolean;
  /** The (first) message of its execution: where it is now (lib/actions/outbox.ts), null when there is none. */
  delivery: {
    status: MessageStatus;
    send_after: string;
    sent_at: string | null;
    delivered_at: string | null;
    /** The provider's reason of a failure, or of the last failed attempt of a message waiting to be retried. */
    error: string | null;
    next_attempt_at: string | null;
    /** A provider would take it (lib/channels): false, a queued message waits for email or SMS to be connected. */
    connected: boolean;
  } | null;
}

/**
 * The select list that turns agent_decisions `d` into a DecisionView; use it with DECISION_JOIN after
 * `from public.agent_decisions d`. One lateral look at the messages of its execution (`result.messageIds`:
 * an undone and re-approved proposal also has the cancelled messages of the first time) gives both the
 * undo flag and the delivery, instead of a subquery each.
 */
export const DECISION_VIEW = `d.id, d.planet, d.action_type, d.tier, d.status, d.args_hash, d.args ->> 'channel' as channel, d.args ->> 'to' as "to",
  d.args ->> 'message' as message, d.details, d.trigger, d.expires_at, d.created_at, d.decided_at, d.executed_at, d.error,
  (d.status = 'executed' and coalesce(m.all_queued, false)) as undoable, m.delivery`;

export const decisionJoin = () => `left join lateral (
    select bool_and(o.status = 'queued') as all_queued,
           (array_agg(json_build_object('status', o.status, 'send_after', o.send_after, 'sent_at', o.sent_at, 'delivered_at', o.delivered_at,
                                        'error', o.error, 'next_attempt_at', o.next_attempt_at, 'connected', ${channelConnectedSql('o')})
                      order by o.created_at, o.id))[1] as delivery
      from public.outbox_messages o
     where o.decision_id = d.id and o.id = any (array(select jsonb_array_elements_text(d.result -> 'messageIds'))::uuid[])) m on true`;

export interface DecisionFilter {
  status?: DecisionStatus;
  tier?: DecisionTier;
  planet?: string;
  limit?: number;
  /** Decisions created before this instant (the createdAt of the last one on the previous page). */
  before?: Date;
}

/** A workspace's decisions, newest first, as any member may see them. */
export async function listDecisions(user: SessionUser, workspaceId: string, filter: DecisionFilter = {}): Promise<DecisionView[]> {
  if (!isUuid(workspaceId)) throw notFound('workspace');
  return withUser(user, async (tx) => {
    await roleIn(tx, user, workspaceId);
    return tx.query<DecisionView>(
      `select ${DECISION_VIEW} from public.agent_decisions d ${decisionJoin()}
        where d.workspace_id = $1 and ($2::text is null or d.status = $2) and ($3::text is null or d.tier = $3)
          and ($4::text is null or d.planet = $4) and ($5::timestamptz is null or d.created_at < $5)
        order by d.created_at desc, d.id limit $6`,
      [workspaceId, filter.status ?? null, filter.tier ?? null, filter.planet ?? null, filter.before?.toISOString() ?? null, filter.limit ?? 50],
    );
  }).catch(rethrowAsApiError);
}
