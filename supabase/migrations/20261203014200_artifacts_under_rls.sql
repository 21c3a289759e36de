-- A person's artifact writes are checked by the database too. Until now lib/artifacts checked that the
-- person could read the conversation and wrote with the service role; now a person publishes, edits,
-- restores and comments as themselves, and these policies say who may. An artifact's chip is posted
-- through the send path (lib/chat), whose policies decide the message.

grant insert (id, workspace_id, conversation_id, message_id, kind, title, language, created_by_user_id) on public.artifacts to authenticated;
grant update (current_version, title, language, updated_at) on public.artifacts to authenticated;
grant insert (workspace_id, conversation_id, artifact_id, version, title, language, content, note, restored_from, author_kind, author_user_id, author_name)
  on public.artifact_versions to authenticated;
grant insert (workspace_id, conversation_id, artifact_id, version, line, quote, body, author_kind, author_user_id, author_name)
  on public.artifact_comments to authenticated;

-- Whoever may post in a conversation publishes an artifact there, with their own message as its chip.
create policy artifacts_insert on public.artifacts for insert to authenticated
  with check (
    created_by_user_id = (select auth.uid())
    and workspace_id in (select private.member_workspace_ids())
    and private.may_post_in(conversation_id)
    and message_id in (select m.id from public.messages m where m.conversation_id = artifacts.conversation_id and m.author_user_id = (select auth.uid()))
  );

-- Whoever may read an artifact moves it on to a version that exists (an edit or a restore adds one first).
create policy artifacts_update on public.artifacts for update to authenticated
  using (workspace_id in (select private.member_workspace_ids()) and conversation_id in (select private.visible_conversation_ids()))
  with check (
    workspace_id in (select private.member_workspace_ids())
    and conversation_id in (select private.visible_conversation_ids())
    and current_version in (select v.version from public.artifact_versions v where v.artifact_id = artifacts.id)
  );

-- Versions and comments: by whoever may read the artifact, as themselves and under their own name. The
-- foreign keys keep them in their artifact's conversation.
create policy artifact_versions_insert on public.artifact_versions for insert to authenticated
  with check (
    author_kind = 'person'
    and author_user_id = (select auth.uid())
    and author_name = (select private.caller_name())
    and workspace_id in (select private.member_workspace_ids())
    and conversation_id in (select private.visible_conversation_ids())
  );

create policy artifact_comments_insert on public.artifact_comments for insert to authenticated
  with check (
    author_kind = 'person'
    and author_user_id = (select auth.uid())
    and author_name = (select private.caller_name())
    and workspace_id in (select private.member_workspace_ids())
    and conversation_id in (select private.visible_conversation_ids())
  );
