-- Row-level security on every table, internals included. The private schema's tables are granted to
-- no API role (test/rls.test.ts checks that); they are read by the migration owner and its security
-- definer functions, which RLS does not restrict. With RLS on and no policy, a grant added by mistake
-- later still shows nothing.
alter table private.schema_migrations enable row level security;
alter table private.instance_settings enable row level security;
alter table private.refresh_tokens enable row level security;
alter table private.password_reset_tokens enable row level security;
alter table private.email_outbox enable row level security;
alter table private.rate_limit_counters enable row level security;
alter table private.executor_events enable row level security;
alter table private.executor_runs enable row level security;
alter table private.executor_steps enable row level security;
alter table private.executor_crons enable row level security;
alter table private.plan_token_caps enable row level security;
alter table private.agents enable row level security;
alter table private.agent_api_keys enable row level security;
alter table private.agent_connections enable row level security;
alter table private.deliveries enable row level security;
alter table private.card_templates enable row level security;
alter table private.analysis_days enable row level security;

-- auth.users only where this migration's owner made it (embedded mode, plain Postgres): on Supabase
-- the table belongs to Supabase Auth, which manages its own access.
do $$
begin
  if (select relowner from pg_class where oid = 'auth.users'::regclass) = (select oid from pg_roles where rolname = current_user) then
    alter table auth.users enable row level security;
  end if;
end $$;
