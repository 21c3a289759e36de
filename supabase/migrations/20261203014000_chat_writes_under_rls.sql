-- A person's chat writes are checked by the database too. Until now lib/chat checked that the person
-- could read the conversation and then wrote everything with the service role; now the rows that are
-- the person's own — their message, a conversation they open, the members they bring or add, a side
-- thread they resolve, a delegation's result they relay — are written as the person, and the
-- policies below say who may write them. What a message sets off stays the server's (lib/chat writes
-- it with `elevated`, after the person's own write): the deliveries to agents, the loop guard and
-- last-message state of the conversation, the message's payload (which thread it opened, what sent
-- it, the card click it carries), agents' rows and events.
--
-- The send path stays the one way the app writes a message. A message written straight into the table
-- (through Supabase's REST API, say) passes the same checks and wakes no agent.

-- The caller's name as their messages, versions and comments carry it.
create function private.caller_name() returns text
language sql stable set search_path = ''
as $$
  select coalesce(nullif(p.display_name, ''), split_part(p.email, '@', 1)) from public.profiles p where p.user_id = (select auth.uid())
$$;

-- Who may post in a conversation: whoever may read it, while it is not a side thread already closed.
create function private.may_post_in(p_conversation_id uuid) returns boolean
language sql stable security definer set search_path = ''
as $$
  select p_conversation_id in (select private.visible_conversation_ids())
     and not exists (select 1 from public.conversations c where c.id = p_conversation_id and c.status in ('resolved', 'abandoned'))
$$;

-- Who may add a member (the person `p_user_id`, or an agent when it is null) to a conversation of one
-- of the caller's workspaces: whoever created it brings its first members (channels, DMs, side threads
-- and delegations get theirs in the statement after the one that creates them); a member of a channel
-- or DM adds others; anyone may join a public channel themselves. People must belong to the workspace
-- and agents be shown in it: the foreign keys see to that.
create function private.may_add_member(p_conversation_id uuid, p_user_id uuid) returns boolean
language sql stable security definer set search_path = ''
as $$
  select exists (
    select 1 from public.conversations c
     where c.id = p_conversation_id
       and c.workspace_id in (select private.member_workspace_ids())
       and ((c.created_by_user_id = (select auth.uid())
             and not exists (select 1 from public.conversation_members m where m.conversation_id = c.id))
            or (c.kind in ('channel', 'dm')
                and exists (select 1 from public.conversation_members m where m.conversation_id = c.id and m.user_id = (select auth.uid())))
            or (c.kind = 'channel' and c.visibility = 'public' and p_user_id = (select auth.uid()))))
$$;

revoke execute on function private.caller_name() from public;
revoke execute on function private.may_post_in(uuid) from public;
revoke execute on function private.may_add_member(uuid, uuid) from public;
grant execute on function private.caller_name() to authenticated;
grant execute on function private.may_post_in(uuid) to authenticated;
grant execute on function private.may_add_member(uuid, uuid) to authenticated;

-- Columns a person writes; the rest (the loop guard, last-message state, payload, read and done
-- markers) keep their defaults or are the server's.
grant insert (workspace_id, conversation_id, author_kind, author_user_id, author_name, body, mentions) on public.messages to authenticated;
grant insert (id, workspace_id, kind, name, visibility, status, status_changed_at, parent_conversation_id, parent_message_id, created_by_user_id)
  on public.conversations to authenticated;
grant update (status, status_changed_at, resolution_message_id, updated_at) on public.conversations to authenticated;
grant insert (workspace_id, conversation_id, user_id, agent_id) on public.conversation_members to authenticated;

-- A person posts as themselves, under their own name, where they may post.
create policy messages_insert on public.messages for insert to authenticated
  with check (
    author_kind = 'person'
    and author_user_id = (select auth.uid())
    and author_name = (select private.caller_name())
    and workspace_id in (select private.member_workspace_ids())
    and private.may_post_in(conversation_id)
  );

-- A member of the workspace opens a channel or DM; a side thread hangs off one's own message in a
-- conversation one may post in; a delegation comes from a conversation one may post in (lib/chat
-- allows DMs only), optionally from one of its messages.
create policy conversations_insert on public.conversations for insert to authenticated
  with check (
    created_by_user_id = (select auth.uid())
    and workspace_id in (select private.member_workspace_ids())
    and case kind
      when 'thread' then status = 'open' and private.may_post_in(parent_conversation_id)
        and parent_message_id in (select m.id from public.messages m
                                   where m.conversation_id = conversations.parent_conversation_id and m.author_user_id = (select auth.uid()))
      when 'delegation' then private.may_post_in(parent_conversation_id)
        and (parent_message_id is null
             or parent_message_id in (select m.id from public.messages m where m.conversation_id = conversations.parent_conversation_id))
      else parent_conversation_id is null and parent_message_id is null
    end
  );

-- Whoever may read an open side thread resolves it, and whoever may read a delegation relays its
-- result, once, each with their own message in the conversation it came from.
create policy conversations_update on public.conversations for update to authenticated
  using (
    id in (select private.visible_conversation_ids())
    and (kind = 'thread' and status = 'open' or kind = 'delegation' and resolution_message_id is null)
  )
  with check (
    id in (select private.visible_conversation_ids())
    and (kind = 'thread' and status = 'resolved' or kind = 'delegation')
    and resolution_message_id in (select m.id from public.messages m
                                   where m.conversation_id = conversations.parent_conversation_id and m.author_user_id = (select auth.uid()))
  );

create policy conversation_members_insert on public.conversation_members for insert to authenticated
  with check (workspace_id in (select private.member_workspace_ids()) and private.may_add_member(conversation_id, user_id));
