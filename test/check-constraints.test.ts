import { describe, expect, it } from 'vitest';
import { EXECUTOR_RUN_STATUSES } from '@/inngest/executor';
import { ACTION_TYPES, CHANNELS, MESSAGE_STATUSES } from '@/lib/actions';
import { BACKENDS, STOP_REASONS } from '@/lib/agent';
import { AGENT_RUNTIMES, AGENT_VISIBILITIES, CREDENTIAL_KINDS } from '@/lib/agents';
import { ARTIFACT_KINDS } from '@/lib/artifacts';
import { ACCOUNT_MAIL_STATUSES } from '@/lib/auth';
import { AUTONOMY_LEVELS, DECISION_STATUSES, DECISION_TIERS } from '@/lib/autonomy';
import { ACTION_STATUSES } from '@/lib/cards';
import { PROVIDERS as CHANNEL_PROVIDERS } from '@/lib/channels';
import { AUTHOR_KINDS, CONVERSATION_KINDS, MESSAGE_AUTHOR_KINDS, CONVERSATION_STATUSES, CONVERSATION_VISIBILITIES, DELIVERY_OUTCOMES, DELIVERY_STATUSES } from '@/lib/chat';
import { PROVIDERS } from '@/lib/connections';
import { asService } from '@/lib/db';
import { LOCALES } from '@/lib/i18n';
import { INSIGHT_SOURCES, INSIGHT_STATUSES, SEVERITIES } from '@/lib/insights';
import { APPOINTMENT_STATUSES, CAMPAIGN_STATUSES, DEAL_STATUSES, LEAD_SOURCES, LEAD_STATUSES, PLANETS, POST_CHANNELS, POST_STATUSES, WAITLIST_STATUSES } from '@/lib/planets';
import { ONBOARDING_STEPS } from '@/lib/onboarding';
import { ROUTINE_RUN_STATUSES } from '@/lib/schedule';
import { QUOTA_METRICS, SALES_PERIODS } from '@/lib/sales';
import { REQUEST_STATUSES } from '@/lib/topics';
import { ASSIGNABLE_ROLES, PLANS, ROLES } from '@/lib/workspaces';
import { setupTestDatabase } from './db';

/**
 * One list per enum: every column whose check constraint names its values (`check (x in (…))`) has
 * one list in the code, the one its type derives from, and the two hold the same values. Read from
 * the migrated database's catalog, so a value added on one side only fails here, and so does a new
 * enum column without its list.
 */

setupTestDatabase();

const LISTS: Record<string, readonly string[]> = {
  'private.agent_api_keys.kind': CREDENTIAL_KINDS,
  'private.agents.backend': BACKENDS,
  'private.agents.runtime': AGENT_RUNTIMES,
  'private.agents.visibility': AGENT_VISIBILITIES,
  'private.deliveries.outcome': DELIVERY_OUTCOMES,
  'private.deliveries.status': DELIVERY_STATUSES,
  'private.email_outbox.locale': LOCALES,
  'private.email_outbox.status': ACCOUNT_MAIL_STATUSES,
  'private.executor_runs.status': EXECUTOR_RUN_STATUSES,
  'private.oauth_states.provider': PROVIDERS,
  'private.plan_token_caps.plan': PLANS,
  'public.agent_decisions.action_type': ACTION_TYPES,
  'public.agent_decisions.planet': PLANETS,
  'public.agent_decisions.status': DECISION_STATUSES,
  'public.agent_decisions.tier': DECISION_TIERS,
  // A run records `none` when no backend was available (AgentRunResult['backend']).
  'public.agent_runs.backend': [...BACKENDS, 'none'],
  'public.agent_runs.stop_reason': STOP_REASONS,
  'public.appointments.status': APPOINTMENT_STATUSES,
  'public.artifact_comments.author_kind': AUTHOR_KINDS,
  'public.artifact_versions.author_kind': AUTHOR_KINDS,
  'public.artifacts.kind': ARTIFACT_KINDS,
  'public.campaigns.channel': CHANNELS,
  'public.campaigns.status': CAMPAIGN_STATUSES,
  'public.card_actions.status': ACTION_STATUSES,
  'public.connections.provider': PROVIDERS,
  'public.conversations.kind': CONVERSATION_KINDS,
  'public.customer_conversations.channel': CHANNELS,
  'public.conversations.status': CONVERSATION_STATUSES,
  'public.conversations.visibility': CONVERSATION_VISIBILITIES,
  'public.deals.status': DEAL_STATUSES,
  'public.deals.source': LEAD_SOURCES,
  'public.sales_quotas.period': SALES_PERIODS,
  'public.sales_quotas.metric': QUOTA_METRICS,
  'public.commission_plans.period': SALES_PERIODS,
  'public.leads.source': LEAD_SOURCES,
  'public.leads.status': LEAD_STATUSES,
  'public.messages.author_kind': MESSAGE_AUTHOR_KINDS,
  'public.onboarding.step': ONBOARDING_STEPS,
  'public.outbox_messages.channel': CHANNELS,
  'public.outbox_messages.provider': CHANNEL_PROVIDERS,
  'public.outbox_messages.status': MESSAGE_STATUSES,
  'public.posts.channel': POST_CHANNELS,
  'public.posts.status': POST_STATUSES,
  'public.profiles.locale': LOCALES,
  'public.push_subscriptions.locale': LOCALES,
  'public.routine_runs.status': ROUTINE_RUN_STATUSES,
  'public.topic_requests.status': REQUEST_STATUSES,
  'public.waitlist_entries.status': WAITLIST_STATUSES,
  'public.workspace_action_autonomy.action_type': ACTION_TYPES,
  'public.workspace_insights.planet': PLANETS,
  'public.workspace_insights.severity': SEVERITIES,
  'public.workspace_insights.source': INSIGHT_SOURCES,
  'public.workspace_insights.status': INSIGHT_STATUSES,
  'public.workspace_invitations.role': ASSIGNABLE_ROLES,
  'public.workspace_members.role': ROLES,
  'public.workspace_planet_autonomy.autonomy': AUTONOMY_LEVELS,
  'public.workspace_planet_autonomy.planet': PLANETS,
  'public.workspaces.locale': LOCALES,
  'public.workspaces.plan': PLANS,
};

/** `CHECK ((status = ANY (ARRAY['a'::text, 'b'::text])))`: how Postgres writes `check (status in ('a', 'b'))`. */
const ENUM_CHECK = /^CHECK \(\((\w+) = ANY \(ARRAY\[((?:'[^']*'::text(?:, )?)+)\]\)\)\)$/;

async function enumChecks(): Promise<Map<string, string[]>> {
  const rows = await asService((tx) =>
    tx.query<{ table_name: string; definition: string }>(
      `select n.nspname || '.' || t.relname as table_name, pg_get_constraintdef(c.oid) as definition
         from pg_constraint c
         join pg_class t on t.oid = c.conrelid
         join pg_namespace n on n.oid = t.relnamespace
        where c.contype = 'c' and n.nspname in ('public', 'private', 'auth')`,
    ),
  );
  const checks = new Map<string, string[]>();
  for (const { table_name, definition } of rows) {
    const match = ENUM_CHECK.exec(definition);
    if (match) checks.set(`${table_name}.${match[1]}`, [...match[2]!.matchAll(/'([^']*)'::text/g)].map((m) => m[1]!));
  }
  return checks;
}

describe('check constraints and the code name the same values', () => {
  it('finds the enum constraints in the catalog', async () => {
    expect((await enumChecks()).size).toBeGreaterThan(30);
  });

  it('every enum column has one list in the code with exactly its values', async () => {
    const mismatches: string[] = [];
    for (const [column, values] of await enumChecks()) {
      const list = LISTS[column];
      if (!list) mismatches.push(`${column}: no list in the code for ${values.join(', ')}`);
      else if (new Set(list).size !== list.length || [...list].sort().join() !== [...values].sort().join()) {
        mismatches.push(`${column}: the database allows ${values.join(', ')}; the code lists ${list.join(', ')}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('every list here names a column that still has its check constraint', async () => {
    const checks = await enumChecks();
    expect(Object.keys(LISTS).filter((column) => !checks.has(column))).toEqual([]);
  });
});
