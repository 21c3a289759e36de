-- The refusals our SQL raises name their message in lib/i18n's dictionaries by their HINT, so the API
-- says them in the reader's language (lib/api fromDatabaseError) without matching the English text.
-- The functions are otherwise unchanged; each message stays what it was.

create or replace function private.protect_workspace() returns trigger
language plpgsql set search_path = ''
as $$
begin
  if tg_op = 'DELETE' then
    -- A personal workspace goes only with its person (the auth.users cascade).
    if old.is_personal and exists (select 1 from auth.users where id = old.owner_id) then
      raise exception 'A personal workspace cannot be deleted' using errcode = 'P0403', hint = 'api.database.personalWorkspace';
    end if;
    return old;
  end if;
  if new.owner_id <> old.owner_id or new.is_personal <> old.is_personal then
    raise exception 'The owner and the personal flag of a workspace never change' using errcode = 'P0403', hint = 'api.database.workspaceFixed';
  end if;
  new.updated_at := now();
  return new;
end $$;

create or replace function private.protect_owner_membership() returns trigger
language plpgsql set search_path = ''
as $$
begin
  if tg_op = 'DELETE' then
    if old.role = 'owner' and exists (select 1 from public.workspaces where id = old.workspace_id) then
      raise exception 'The owner cannot leave or be removed from their workspace' using errcode = 'P0403', hint = 'api.database.ownerStays';
    end if;
    return old;
  end if;
  if tg_op = 'UPDATE' and (old.role = 'owner' or new.role = 'owner') and new.role is distinct from old.role then
    raise exception 'The owner is set at creation and cannot be reassigned' using errcode = 'P0403', hint = 'api.database.ownerFixed';
  end if;
  if tg_op = 'INSERT' and new.role = 'owner' and exists (
    select 1 from public.workspaces where id = new.workspace_id and owner_id <> new.user_id
  ) then
    raise exception 'Only the creator owns a workspace' using errcode = 'P0403', hint = 'api.database.creatorOwns';
  end if;
  return new;
end $$;

create or replace function public.accept_invitation(p_token_hash text) returns uuid
language plpgsql security definer set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_email text;
  v_inv public.workspace_invitations;
begin
  if v_uid is null then
    raise exception 'Sign in to accept an invitation' using errcode = 'P0401', hint = 'api.database.invitationSignIn';
  end if;
  select * into v_inv from public.workspace_invitations where token_hash = p_token_hash for update;
  if not found then
    raise exception 'This invitation does not exist or was revoked' using errcode = 'P0404', hint = 'api.database.invitationUnknown';
  end if;
  if v_inv.accepted_at is not null then
    raise exception 'This invitation has already been used' using errcode = 'P0410', hint = 'api.database.invitationUsed';
  end if;
  if v_inv.expires_at <= now() then
    raise exception 'This invitation has expired; ask for a new one' using errcode = 'P0410', hint = 'api.database.invitationExpired';
  end if;
  select email into v_email from auth.users where id = v_uid;
  if lower(v_email) <> lower(v_inv.email) then
    raise exception 'This invitation was sent to another email address' using errcode = 'P0403', hint = 'api.database.invitationOtherEmail';
  end if;
  if exists (select 1 from public.workspace_members where workspace_id = v_inv.workspace_id and user_id = v_uid) then
    raise exception 'You are already a member of this workspace' using errcode = 'P0409', hint = 'api.database.alreadyMember';
  end if;
  insert into public.workspace_members (workspace_id, user_id, role) values (v_inv.workspace_id, v_uid, v_inv.role);
  update public.workspace_invitations set accepted_at = now(), accepted_by = v_uid where id = v_inv.id;
  return v_inv.workspace_id;
end $$;

create or replace function private.limit_routines_per_agent() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform pg_advisory_xact_lock(hashtextextended(new.workspace_id::text || new.agent_id::text, 0));
  if (select count(*) from public.routines r where r.workspace_id = new.workspace_id and r.agent_id = new.agent_id) >= 10 then
    raise exception 'This agent already has 10 routines here, the most it can have. Delete or change one of them first.'
      using errcode = 'P0409', hint = 'api.database.routineLimit';
  end if;
  return new;
end $$;
