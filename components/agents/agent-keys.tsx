'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { api, errorText, fieldErrorsOf } from '@/components/api/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardTitle } from '@/components/ui/card';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { TextField } from '@/components/ui/field';
import { useToast } from '@/components/ui/toast';
import { formatRelative } from '@/lib/i18n';
import { useI18n } from '@/lib/i18n/client';
import { agentsApi, agentsPath, type AgentKeyView, type AgentView } from './types';

/** The exact command that runs a local agent; `key` when one was just made, else where to put it. */
function bridgeCommand(appUrl: string, key: string | null) {
  return `npm run bridge -- --key ${key ?? 'mvk_…'} --url ${appUrl}`;
}

async function copy(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Clipboard access can be refused; the text stays selectable.
    return false;
  }
}

function CopyField({ label, value }: { label: string; value: string }) {
  const { t } = useI18n();
  const [copied, setCopied] = useState(false);
  return (
    <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
      <input
        aria-label={label}
        readOnly
        value={value}
        onFocus={(event) => event.currentTarget.select()}
        className="min-h-11 w-full min-w-0 flex-1 rounded-xl border border-line-strong bg-surface px-3 font-mono text-sm"
      />
      <Button variant="secondary" onClick={async () => setCopied(await copy(value))} aria-label={t('agentsScreen.copyNamed', { what: label })}>
        {copied ? t('agentsScreen.copied') : t('agentsScreen.copy')}
      </Button>
    </div>
  );
}

/**
 * An agent's keys: what its bridge signs in with. A new key is shown once, with a copy button (and, for
 * an agent that runs on the owner's computer, the command that uses it); revoking one stops it at once.
 * Host tokens (the hosted runner's own, renewed by the app) are not listed: nobody handles them.
 */
export function AgentKeys({ workspaceId, agent, initialKeys, appUrl }: { workspaceId: string; agent: AgentView; initialKeys: AgentKeyView[]; appUrl: string }) {
  const { t, locale } = useI18n();
  const toast = useToast();
  const queryClient = useQueryClient();
  const base = `${agentsApi(workspaceId)}/${agent.id}/keys`;
  const queryKey = ['workspaces', workspaceId, 'agents', agent.id, 'keys'];
  const keys = useQuery({ queryKey, queryFn: () => api<AgentKeyView[]>(base), initialData: initialKeys });
  const [label, setLabel] = useState('');
  const create = useMutation({
    mutationFn: () => api<{ key: string; credential: AgentKeyView }>(base, { body: { label: label.trim() } }),
    onSuccess: ({ credential }) => {
      queryClient.setQueryData<AgentKeyView[]>(queryKey, (list) => [...(list ?? []), credential]);
      setLabel('');
    },
  });
  const revoke = useMutation({
    mutationFn: (key: AgentKeyView) => api<AgentKeyView>(`${base}/${key.id}`, { method: 'DELETE' }),
    onSuccess: (revoked) => {
      queryClient.setQueryData<AgentKeyView[]>(queryKey, (list) => (list ?? []).map((k) => (k.id === revoked.id ? revoked : k)));
      toast(t('agentsScreen.keyRevoked', { prefix: revoked.prefix }), 'success');
    },
    onError: (error) => toast(errorText(error, t), 'error'),
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!create.isPending) create.mutate();
  }

  const shown = keys.data.filter((k) => k.kind === 'key');
  const secret = create.data?.key ?? null;
  return (
    <>
      {agent.runtime === 'local' && (
        <Card>
          <CardTitle>{t('agentsScreen.runLocally')}</CardTitle>
          <p className="mt-1 mb-3 text-[0.9375rem] text-pretty text-muted">{secret ? t('agentsScreen.runLocallyWithKey') : t('agentsScreen.runLocallyLead')}</p>
          <CopyField label={t('agentsScreen.command')} value={bridgeCommand(appUrl, secret)} />
        </Card>
      )}
      <Card>
        <CardTitle>{t('agentsScreen.keys')}</CardTitle>
        <p className="mt-1 mb-3 text-[0.9375rem] text-pretty text-muted">{t('agentsScreen.keysLead')}</p>
        <form onSubmit={submit} noValidate className="flex flex-col gap-3">
          {create.isError && !fieldErrorsOf(create.error).label && <Alert tone="error">{errorText(create.error, t)}</Alert>}
          <TextField
            id="key-label"
            label={t('agentsScreen.keyLabel')}
            hint={t('agentsScreen.keyLabelHint')}
            value={label}
            onChange={(event) => setLabel(event.target.value)}
            errors={fieldErrorsOf(create.error).label}
            maxLength={80}
            autoComplete="off"
          />
          <Button type="submit" variant="secondary" pending={create.isPending} pendingLabel={t('agentsScreen.creatingKey')} className="self-start">
            {t('agentsScreen.createKey')}
          </Button>
        </form>
        {secret && (
          <Alert tone="success" className="mt-4">
            <p className="mb-3">{t('agentsScreen.keyShownOnce')}</p>
            <CopyField label={t('agentsScreen.newKey')} value={secret} />
          </Alert>
        )}
        {shown.length === 0 ? (
          <p className="mt-4 text-[0.9375rem] text-muted">{t('agentsScreen.noKeys')}</p>
        ) : (
          <ul className="-mx-5 mt-4 divide-y divide-line sm:-mx-6" aria-label={t('agentsScreen.keys')}>
            {shown.map((key) => (
              <li key={key.id} className="flex flex-wrap items-center gap-x-3 gap-y-2 px-5 py-3 sm:px-6">
                <div className="flex min-w-0 flex-1 flex-col">
                  <span className={`truncate font-mono font-semibold ${key.revokedAt ? 'text-muted line-through' : ''}`}>
                    {key.prefix}…{key.label && <span className="font-sans font-normal"> · {key.label}</span>}
                  </span>
                  <span className="text-sm text-muted" suppressHydrationWarning>
                    {t('agentsScreen.keyCreated', { when: formatRelative(key.createdAt, locale) })} ·{' '}
                    {key.lastUsedAt ? t('agentsScreen.keyLastUsed', { when: formatRelative(key.lastUsedAt, locale) }) : t('agentsScreen.keyNeverUsed')}
                  </span>
                </div>
                {key.revokedAt ? (
                  <span className="rounded-full bg-subtle px-2.5 py-0.5 text-sm font-semibold text-muted">{t('agentsScreen.revoked')}</span>
                ) : (
                  <ConfirmButton
                    label={t('agentsScreen.revokeNamed', { prefix: key.prefix })}
                    question={t('agentsScreen.revokeQuestion', { prefix: key.prefix })}
                    confirmLabel={t('agentsScreen.revoke')}
                    onConfirm={() => revoke.mutate(key)}
                  >
                    {t('agentsScreen.revoke')}
                  </ConfirmButton>
                )}
              </li>
            ))}
          </ul>
        )}
      </Card>
    </>
  );
}

/** Deleting an agent, asked once in place. */
export function DeleteAgent({ workspaceId, agent }: { workspaceId: string; agent: AgentView }) {
  const { t } = useI18n();
  const toast = useToast();
  const router = useRouter();
  const remove = useMutation({
    mutationFn: () => api<{ id: string }>(`${agentsApi(workspaceId)}/${agent.id}`, { method: 'DELETE' }),
    onSuccess: () => {
      toast(t('agentsScreen.deleted', { name: agent.name }), 'success');
      router.push(agentsPath(workspaceId));
      router.refresh();
    },
    onError: (error) => toast(errorText(error, t), 'error'),
  });
  return (
    <Card tone="danger">
      <CardTitle>{t('agentsScreen.delete')}</CardTitle>
      <p className="mt-1 mb-4 text-[0.9375rem] text-pretty text-muted">{t('agentsScreen.deleteLead')}</p>
      <ConfirmButton
        label={t('agentsScreen.deleteNamed', { name: agent.name })}
        question={t('agentsScreen.deleteQuestion', { name: agent.name })}
        confirmLabel={t('agentsScreen.deleteConfirm')}
        onConfirm={() => remove.mutate()}
        pending={remove.isPending}
      >
        {t('agentsScreen.delete')}
      </ConfirmButton>
    </Card>
  );
}
