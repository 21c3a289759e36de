-- The Home's "Done for you" reads a workspace's routine runs of the last day, newest first; the same
-- index serves the workspace foreign key, so the one on workspace_id alone goes.
create index routine_runs_recent_idx on public.routine_runs (workspace_id, created_at);
drop index public.routine_runs_workspace_idx;
