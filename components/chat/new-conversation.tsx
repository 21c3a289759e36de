'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useId, useRef, useState, type FormEvent } from 'react';
import { api, errorText, fieldErrorsOf } from '@/components/api/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { SelectField, TextField } from '@/components/ui/field';
import { CloseIcon, PlusIcon } from '@/components/ui/icons';
import { fetchMembers, membersKey } from '@/components/workspaces/queries';
import { useI18n } from '@/lib/i18n/client';
import { conversationsKey } from './queries';
import type { AgentView, ConversationView, Viewer } from './types';

/**
 * Creates a channel (named, public or private) or a DM, choosing which agents and people take
 * part. A modal dialog: the browser traps focus, closes on Escape and returns focus to the button.
 */
export function NewConversation({ viewer, agents }: { viewer: Viewer; agents: AgentView[] }) {
  const { t } = useI18n();
  const router = useRouter();
  const queryClient = useQueryClient();
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [kind, setKind] = useState<'channel' | 'dm'>('channel');
  const [open, setOpen] = useState(false);
  const members = useQuery({ queryKey: membersKey(viewer.workspaceId), queryFn: () => fetchMembers(viewer.workspaceId), enabled: open });
  const people = (members.data ?? []).filter((m) => m.userId !== viewer.id);

  const create = useMutation({
    mutationFn: (body: Record<string, unknown>) => api<ConversationView>('/api/conversations', { body }),
    onSuccess: (conversation) => {
      void queryClient.invalidateQueries({ queryKey: conversationsKey(viewer.workspaceId) });
      dialog.current?.close();
      router.push(`/w/${viewer.workspaceId}/chat/${conversation.id}`);
    },
  });
  const errors = fieldErrorsOf(create.error);

  function show() {
    create.reset();
    setOpen(true);
    dialog.current?.showModal();
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const agentIds = form.getAll('agentIds').map(String);
    const userIds = form.getAll('userIds').map(String);
    create.mutate(
      kind === 'channel'
        ? { kind, workspaceId: viewer.workspaceId, name: String(form.get('name') ?? ''), visibility: String(form.get('visibility')), agentIds, userIds }
        : { kind, workspaceId: viewer.workspaceId, agentIds, userIds },
    );
  }

  const choice = (name: 'agentIds' | 'userIds', id: string, label: string, hint: string) => (
    <li key={id}>
      <label className="flex min-h-11 items-center gap-3 rounded-lg px-2 hover:bg-subtle">
        <input type="checkbox" name={name} value={id} className="size-5 accent-[var(--accent)]" />
        <span className="flex min-w-0 flex-col leading-tight">
          <span className="truncate font-medium">{label}</span>
          {hint && <span className="truncate text-sm text-muted">{hint}</span>}
        </span>
      </label>
    </li>
  );

  return (
    <>
      <Button variant="secondary" onClick={show} className="shrink-0">
        <PlusIcon />
        {t('chat.new')}
      </Button>
      <dialog
        ref={dialog}
        aria-labelledby={titleId}
        onClose={() => setOpen(false)}
        className="m-auto max-h-[calc(100dvh-2rem)] w-[calc(100%-1.5rem)] max-w-lg overflow-y-auto rounded-2xl border border-line bg-surface p-0 text-ink shadow-card backdrop:bg-black/40"
      >
        <form onSubmit={submit} className="flex flex-col gap-5 p-5 sm:p-6">
          <div className="flex items-start justify-between gap-3">
            <h2 id={titleId} className="text-lg font-semibold">
              {t('chat.newTitle')}
            </h2>
            <button
              type="button"
              onClick={() => dialog.current?.close()}
              aria-label={t('common.cancel')}
              className="-mt-2 -mr-2 inline-flex size-11 items-center justify-center rounded-lg text-muted hover:bg-subtle"
            >
              <CloseIcon />
            </button>
          </div>

          <fieldset className="grid grid-cols-2 gap-2">
            <legend className="mb-2 text-sm font-semibold">{t('chat.kind')}</legend>
            {(['channel', 'dm'] as const).map((value) => (
              <label
                key={value}
                className={`flex min-h-11 cursor-pointer items-center justify-center gap-2 rounded-xl border px-3 font-semibold has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-accent ${
                  kind === value ? 'border-accent bg-accent-soft text-accent-ink' : 'border-line-strong'
                }`}
              >
                <input type="radio" name="kind" value={value} checked={kind === value} onChange={() => setKind(value)} className="sr-only" />
                {t(value === 'channel' ? 'chat.kindChannel' : 'chat.kindDm')}
              </label>
            ))}
          </fieldset>

          {kind === 'channel' && (
            <>
              <TextField id="name" label={t('chat.channelName')} hint={t('chat.channelNameHint')} required maxLength={80} errors={errors.name} autoComplete="off" />
              <SelectField
                id="visibility"
                label={t('chat.visibility')}
                options={[
                  { value: 'public', label: t('chat.visibilityPublic') },
                  { value: 'private', label: t('chat.visibilityPrivate') },
                ]}
              />
            </>
          )}

          <fieldset>
            <legend className="mb-1 text-sm font-semibold">{t('chat.chooseAgents')}</legend>
            {agents.length === 0 ? (
              <p className="text-sm text-muted">{t('chat.noAgents')}</p>
            ) : (
              <ul className="flex flex-col">{agents.map((a) => choice('agentIds', a.id, a.name, a.role))}</ul>
            )}
          </fieldset>
          <fieldset>
            <legend className="mb-1 text-sm font-semibold">{t('chat.choosePeople')}</legend>
            {members.isPending ? (
              <p className="text-sm text-muted">{t('chat.loading')}</p>
            ) : people.length === 0 ? (
              <p className="text-sm text-muted">{t('chat.noPeople')}</p>
            ) : (
              <ul className="flex flex-col">{people.map((p) => choice('userIds', p.userId, p.displayName || p.email, p.displayName ? p.email : ''))}</ul>
            )}
          </fieldset>

          {create.isError && <Alert tone="error">{errorText(create.error, t)}</Alert>}
          <Button type="submit" pending={create.isPending} pendingLabel={t('chat.creating')}>
            {t(kind === 'channel' ? 'chat.createChannel' : 'chat.createDm')}
          </Button>
        </form>
      </dialog>
    </>
  );
}
