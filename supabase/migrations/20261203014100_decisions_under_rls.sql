-- A person's decision on a proposal is checked by the database too: the owner and admins approve or
-- ignore a proposal still waiting for an OK, as themselves, naming themselves. Until now lib/autonomy
-- checked the role and wrote the decision with the service role.
--
-- What follows stays the server's (lib/autonomy writes it with `elevated`): carrying the action out
-- (the outbox, the marks on appointments and waitlist entries, the decision's result and final status),
-- expiry (by the app's clock, which the database does not know), and undo, which reverses an execution
-- or reopens an ignored proposal after lib/autonomy's own role check. People never write what runs
-- (`args`, `args_hash`) or what ran (`result`): an approval written straight into the table runs nothing.
grant update (status, decided_by, decided_at) on public.agent_decisions to authenticated;

create policy agent_decisions_decide on public.agent_decisions for update to authenticated
  using (workspace_id in (select private.admin_workspace_ids()) and status = 'proposed')
  with check (
    workspace_id in (select private.admin_workspace_ids())
    and status in ('approved', 'rejected')
    and decided_by = (select auth.uid())
    and decided_at is not null
  );
