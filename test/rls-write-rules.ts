import type { SessionUser } from '@/lib/db';
import type { RlsWorld } from './rls-fixture';

/**
 * Who may write what, per table: the RLS suite finds every table that authenticated users may insert
 * into or update (by a grant or a policy) and fails on one without a rule here. Every attempt is made
 * in workspace A of the RLS world, without RETURNING (which would let the read rule refuse in the
 * insert rule's place).
 *
 * `who` is the least role in workspace A that may do it; the roles above it may too, those below it
 * (a stranger, a member, an admin) may not. `author` means only workspace A's owner, whatever anyone's
 * role: the person the rows name, or the one person the seeded rows make a member of a conversation.
 */
export type Writer = 'member' | 'admin' | 'owner' | 'author';

export interface WriteContext {
  world: RlsWorld;
  /** The person attempting the write. */
  user: SessionUser;
  /** Their name as their messages carry it (display name, else the part of the email before the @). */
  name: string;
  /** Read as the service role: one seeded row of each workspace-scoped table in workspace A. */
  seeded: Record<string, Record<string, unknown>>;
}

export interface InsertRule {
  who: Writer;
  /** Column values of a row that `who` may insert: valid in every other way. */
  row: (ctx: WriteContext) => Record<string, unknown>;
  /** The table holds one row per workspace (or per person in it): the seeded ones are deleted first, in the same rolled-back transaction. */
  replacesSeeded?: true;
}

export interface UpdateRule {
  who: Writer;
  /** A SET clause that changes every row it reaches. */
  set: string;
  /** Which rows to update, with its parameters; by default workspace A's. */
  where?: (world: RlsWorld) => [string, unknown[]];
}

const inAWeek = () => new Date(Date.now() + 7 * 86_400_000).toISOString();
const inAWeekAndAnHour = () => new Date(Date.now() + 7 * 86_400_000 + 3_600_000).toISOString();

export const writeRules: Record<string, { insert?: InsertRule[]; update?: UpdateRule }> = {
  workspaces: {
    // A team workspace is created only by the person it names as owner.
    insert: [{ who: 'author', row: ({ world }) => ({ name: 'Another team', owner_id: world.ownerA.id, is_personal: false }) }],
    update: { who: 'admin', set: `name = name || ' renamed'`, where: (world) => ['id = $1', [world.a.id]] },
  },
  workspace_members: {
    // Only the owner promotes; the member's own attempt to promote themselves included.
    update: { who: 'owner', set: `role = 'admin'`, where: (world) => ['workspace_id = $1 and user_id = $2', [world.a.id, world.memberA.id]] },
  },
  workspace_invitations: {
    insert: [
      {
        who: 'admin',
        row: ({ world, user }) => ({
          workspace_id: world.a.id,
          email: 'new-member@example.test',
          role: 'member',
          token_hash: `member-invite-${user.id}`,
          invited_by: user.id,
          expires_at: inAWeek(),
        }),
      },
      {
        // Only the owner invites admins.
        who: 'owner',
        row: ({ world, user }) => ({
          workspace_id: world.a.id,
          email: 'new-admin@example.test',
          role: 'admin',
          token_hash: `admin-invite-${user.id}`,
          invited_by: user.id,
          expires_at: inAWeek(),
        }),
      },
    ],
  },
  profiles: {
    update: { who: 'author', set: `display_name = display_name || '!'`, where: (world) => ['user_id = $1', [world.ownerA.id]] },
  },
  // lib/onboarding: a person's own draft, nobody else's. Owner A's seeded row links workspace A, so
  // `replacesSeeded` removes it before owner A inserts a fresh one.
  onboarding: {
    insert: [{ who: 'author', row: ({ world }) => ({ user_id: world.ownerA.id, step: 'sector', answers: '{"name":"Studio"}' }), replacesSeeded: true }],
    update: { who: 'author', set: `step = 'hours', answers = answers || '{"x":1}'`, where: (world) => ['user_id = $1', [world.ownerA.id]] },
  },

  // lib/push: a person's own devices, nobody else's (a device that moves to another person is the server's move).
  push_subscriptions: {
    insert: [{ who: 'author', row: ({ world, user }) => ({ user_id: world.ownerA.id, endpoint: `https://push.example.test/new-${user.id}`, p256dh: `B${'A'.repeat(86)}`, auth: 'A'.repeat(22), locale: 'it' }) }],
    update: { who: 'author', set: `locale = 'it', updated_at = now()`, where: (world) => ['user_id = $1', [world.ownerA.id]] },
  },

  // lib/planets: bookings and the CRM are everyone's work; the salon's set-up is the admins'.
  appointments: {
    insert: [
      {
        who: 'member',
        row: ({ world, seeded }) => ({
          workspace_id: world.a.id,
          customer_id: seeded.customers!.id,
          service_id: seeded.services!.id,
          staff_id: seeded.staff!.id,
          starts_at: inAWeek(),
          ends_at: inAWeekAndAnHour(),
          status: 'booked',
          price_cents: 3800,
        }),
      },
    ],
    update: { who: 'member', set: 'price_cents = price_cents + 100' },
  },
  customers: {
    insert: [{ who: 'member', row: ({ world }) => ({ workspace_id: world.a.id, name: 'Sara Neri', email: 'sara@example.com' }) }],
    update: { who: 'member', set: 'vip = not vip' },
  },
  waitlist_entries: {
    insert: [
      {
        who: 'member',
        row: ({ world, seeded }) => ({
          workspace_id: world.a.id,
          customer_id: seeded.customers!.id,
          service_id: seeded.services!.id,
          window_start: inAWeek(),
          window_end: inAWeekAndAnHour(),
        }),
      },
    ],
    update: { who: 'member', set: `window_end = window_end + interval '1 hour'` },
  },
  leads: {
    insert: [{ who: 'member', row: ({ world }) => ({ workspace_id: world.a.id, name: 'Luca Riva', email: 'luca@example.com', source: 'website' }) }],
    update: { who: 'member', set: `name = name || ' Jr'` },
  },
  deals: {
    insert: [
      { who: 'member', row: ({ world, seeded }) => ({ workspace_id: world.a.id, title: 'Wedding party', stage_id: seeded.pipeline_stages!.id, value_cents: 50000 }) },
    ],
    update: { who: 'member', set: 'value_cents = value_cents + 100' },
  },
  services: {
    insert: [{ who: 'admin', row: ({ world }) => ({ workspace_id: world.a.id, name: 'Piega', duration_minutes: 30, price_cents: 2500 }) }],
    update: { who: 'admin', set: 'price_cents = price_cents + 100' },
  },
  staff: {
    insert: [{ who: 'admin', row: ({ world }) => ({ workspace_id: world.a.id, name: 'Marta Gallo' }) }],
    update: { who: 'admin', set: 'active = not active' },
  },
  opening_hours: {
    insert: [{ who: 'admin', row: ({ world }) => ({ workspace_id: world.a.id, weekday: 3, opens: '09:00', closes: '18:00' }) }],
    update: { who: 'admin', set: `closes = closes + interval '30 minutes'` },
  },
  pipeline_stages: {
    insert: [{ who: 'admin', row: ({ world }) => ({ workspace_id: world.a.id, name: 'Proposta', position: 2, probability: 50 }) }],
    update: { who: 'admin', set: 'probability = probability + 5' },
  },

  // lib/chat: one's own messages, conversations, members brought or added, reactions and read position.
  // The seeded public channel of workspace A (the one with a reaction) has its owner as its only person.
  messages: {
    insert: [
      {
        // Whoever may read the conversation posts in it, as themselves.
        who: 'member',
        row: ({ world, user, name, seeded }) => ({
          workspace_id: world.a.id,
          conversation_id: seeded.message_reactions!.conversation_id,
          author_kind: 'person',
          author_user_id: user.id,
          author_name: name,
          body: 'Morning!',
        }),
      },
      {
        // Nobody posts as someone else.
        who: 'author',
        row: ({ world, seeded }) => ({
          workspace_id: world.a.id,
          conversation_id: seeded.message_reactions!.conversation_id,
          author_kind: 'person',
          author_user_id: world.ownerA.id,
          author_name: 'owner-a',
          body: 'Morning!',
        }),
      },
    ],
    update: { who: 'author', set: `body = body || ' (edited)', edited_at = now()` },
  },
  conversations: {
    insert: [
      { who: 'member', row: ({ world, user }) => ({ workspace_id: world.a.id, kind: 'channel', name: 'planning', visibility: 'public', created_by_user_id: user.id }) },
    ],
    // Whoever may read an open side thread resolves it, with their own message where it came from: in the
    // seeded channel only its owner has written (a coworker resolving is lib/chat/pipeline.test.ts's).
    update: {
      who: 'author',
      set: `status = 'resolved', status_changed_at = now(),
            resolution_message_id = (select m.id from public.messages m where m.conversation_id = conversations.parent_conversation_id and m.author_user_id = auth.uid() limit 1)`,
      where: (world) => [`workspace_id = $1 and kind = 'thread'`, [world.a.id]],
    },
  },
  conversation_members: {
    insert: [
      {
        // Anyone in the workspace joins a public channel (its seeded members are gone first, the owner included).
        who: 'member',
        row: ({ world, user, seeded }) => ({ workspace_id: world.a.id, conversation_id: seeded.message_reactions!.conversation_id, user_id: user.id }),
        replacesSeeded: true,
      },
      {
        // Only a member adds others: an agent shown in the workspace (the card seeder's) to the channel.
        who: 'author',
        row: ({ world, seeded }) => ({ workspace_id: world.a.id, conversation_id: seeded.message_reactions!.conversation_id, agent_id: seeded.card_actions!.agent_id }),
      },
    ],
    update: { who: 'author', set: 'last_read_seq = last_read_seq + 1' },
  },
  message_reactions: {
    insert: [
      {
        who: 'member',
        row: ({ world, user, seeded }) => ({
          workspace_id: world.a.id,
          conversation_id: seeded.messages!.conversation_id,
          message_id: seeded.messages!.id,
          user_id: user.id,
          emoji: '🎉',
        }),
      },
    ],
  },

  // lib/artifacts: whoever may read a conversation's artifacts publishes, edits and comments, as themselves.
  artifacts: {
    insert: [
      {
        // Published with one's own message as its chip: in the seeded channel only the owner has written.
        who: 'author',
        row: ({ world, user, seeded }) => ({
          workspace_id: world.a.id,
          conversation_id: seeded.message_reactions!.conversation_id,
          message_id: seeded.message_reactions!.message_id,
          kind: 'document',
          title: 'Opening hours',
          created_by_user_id: user.id,
        }),
      },
    ],
    update: { who: 'member', set: `title = title || ' (2)', updated_at = now()` },
  },
  artifact_versions: {
    insert: [
      {
        who: 'member',
        row: ({ world, user, name, seeded }) => ({
          workspace_id: world.a.id,
          conversation_id: seeded.artifacts!.conversation_id,
          artifact_id: seeded.artifacts!.id,
          version: 2,
          title: 'Brief',
          content: '# Brief\nHello again',
          author_kind: 'person',
          author_user_id: user.id,
          author_name: name,
        }),
      },
    ],
  },
  artifact_comments: {
    insert: [
      {
        who: 'member',
        row: ({ world, user, name, seeded }) => ({
          workspace_id: world.a.id,
          conversation_id: seeded.artifacts!.conversation_id,
          artifact_id: seeded.artifacts!.id,
          version: 1,
          body: 'Looks good',
          author_kind: 'person',
          author_user_id: user.id,
          author_name: name,
        }),
      },
    ],
  },

  // lib/topics: members queue work; the API keys and the queue's concurrency are the admins'.
  api_keys: {
    insert: [
      {
        who: 'admin',
        row: ({ world, user }) => ({ workspace_id: world.a.id, name: 'Zapier', prefix: 'mvk_rlstest', key_hash: `hash-${user.id}`, created_by: user.id }),
      },
    ],
    update: { who: 'admin', set: 'revoked_at = now()' },
  },
  workspace_channels: {
    insert: [
      {
        who: 'admin',
        row: ({ world, user }) => ({ workspace_id: world.a.id, smtp_host: 'smtp.example.test', smtp_from: 'a@example.test', updated_by: user.id }),
        replacesSeeded: true,
      },
    ],
    update: { who: 'admin', set: 'daily_cap = daily_cap + 1, updated_by = auth.uid()' },
  },
  topic_queue_settings: {
    insert: [{ who: 'admin', row: ({ world }) => ({ workspace_id: world.a.id, concurrency: 2 }), replacesSeeded: true }],
    update: { who: 'admin', set: 'concurrency = concurrency + 1' },
  },
  topics: {
    insert: [{ who: 'member', row: ({ world }) => ({ workspace_id: world.a.id, name: 'marketing', system_prompt: 'You write copy.' }) }],
    update: { who: 'member', set: `summary = summary || ' More.'` },
  },
  topic_sessions: {
    insert: [{ who: 'member', row: ({ world, seeded }) => ({ workspace_id: world.a.id, topic_id: seeded.topics!.id }) }],
    update: { who: 'member', set: 'closed_at = now()' },
  },
  topic_requests: {
    insert: [
      {
        who: 'member',
        row: ({ world, user, seeded }) => ({
          workspace_id: world.a.id,
          topic_id: seeded.topic_sessions!.topic_id,
          session_id: seeded.topic_sessions!.id,
          prompt: 'Explain RLS.',
          submitted_by: user.id,
        }),
      },
    ],
  },

  // lib/schedule: routines are set up by admins.
  routines: {
    insert: [
      {
        who: 'admin',
        row: ({ world, user, seeded }) => ({
          workspace_id: world.a.id,
          agent_id: seeded.workspace_agents!.agent_id,
          name: 'Evening recap',
          instruction: 'Recap the day.',
          interval_minutes: 60,
          next_run_at: inAWeek(),
          created_by: user.id,
        }),
      },
    ],
    update: { who: 'admin', set: 'enabled = not enabled, next_run_at = case when enabled then null else now() end' },
  },

  // lib/autonomy, lib/insights, lib/home: autonomy and decisions are the admins'; insights and one's own Home are everyone's.
  workspace_autonomy: {
    insert: [{ who: 'admin', row: ({ world, user }) => ({ workspace_id: world.a.id, paused: true, updated_by: user.id }), replacesSeeded: true }],
    update: { who: 'admin', set: 'paused = not paused, updated_by = auth.uid()' },
  },
  workspace_planet_autonomy: {
    insert: [{ who: 'admin', row: ({ world, user }) => ({ workspace_id: world.a.id, planet: 'crm', autonomy: 'propose', updated_by: user.id }) }],
    update: { who: 'admin', set: `autonomy = 'off', updated_by = auth.uid()` },
  },
  workspace_action_autonomy: {
    insert: [{ who: 'admin', row: ({ world, user }) => ({ workspace_id: world.a.id, action_type: 'booking_reminder', auto: true, updated_by: user.id }) }],
    update: { who: 'admin', set: 'auto = not auto, updated_by = auth.uid()' },
  },
  workspace_insights: {
    update: { who: 'member', set: `status = 'dismissed', status_changed_by = auth.uid()` },
  },
  agent_decisions: {
    // The owner and admins decide a proposal still waiting, naming themselves; what follows is the server's.
    update: {
      who: 'admin',
      set: `status = 'rejected', decided_by = auth.uid(), decided_at = now()`,
      where: (world) => [`workspace_id = $1 and status = 'proposed'`, [world.a.id]],
    },
  },
  workspace_home_prefs: {
    insert: [
      { who: 'member', row: ({ world, user }) => ({ workspace_id: world.a.id, user_id: user.id, prefs: '{"sections": ["done"]}' }), replacesSeeded: true },
    ],
    update: { who: 'author', set: `prefs = '{"sections": ["needs"]}'` },
  },

  // lib/sales: the boss view's configuration is for owners and admins.
  sales_quotas: {
    insert: [{ who: 'admin', row: ({ world }) => ({ workspace_id: world.a.id, user_id: world.adminA.id, period: 'quarter', starts_on: '2026-10-01', metric: 'won_count', target: 5 }) }],
    update: { who: 'admin', set: 'target = target + 1' },
  },
  sales_territory_models: {
    insert: [{ who: 'admin', row: ({ world }) => ({ workspace_id: world.a.id, name: 'By sector' }) }],
    update: { who: 'admin', set: `name = name || ' 2'` },
  },
  sales_territories: {
    insert: [{ who: 'admin', row: ({ world, seeded }) => ({ workspace_id: world.a.id, model_id: seeded.sales_territory_models!.id, name: 'Brianza', owner_user_id: world.adminA.id }) }],
    update: { who: 'admin', set: 'position = position + 1' },
  },
  commission_plans: {
    insert: [{ who: 'admin', row: ({ world }) => ({ workspace_id: world.a.id, name: 'Senior', period: 'quarter', base_rate_bp: 500 }) }],
    update: { who: 'admin', set: 'base_rate_bp = base_rate_bp + 1' },
  },
  commission_assignments: {
    insert: [{ who: 'admin', row: ({ world, seeded }) => ({ workspace_id: world.a.id, user_id: world.adminA.id, plan_id: seeded.commission_plans!.id }) }],
  },
  call_scripts: {
    insert: [{ who: 'admin', row: ({ world, seeded }) => ({ workspace_id: world.a.id, stage_id: seeded.pipeline_stages!.id, body: 'Ciao {{customer}}' }), replacesSeeded: true }],
    update: { who: 'admin', set: `body = body || '!'` },
  },
};
