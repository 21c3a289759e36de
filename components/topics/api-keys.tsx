'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { api, errorText, fieldErrorsOf } from '@/components/api/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardTitle } from '@/components/ui/card';
import { SelectField, TextField } from '@/components/ui/field';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { focusFirstError } from '@/components/ui/form';
import { useToast } from '@/components/ui/toast';
import type { Wire } from '@/lib/api';
import { formatDateTime, formatRelative } from '@/lib/i18n';
import { useI18n } from '@/lib/i18n/client';
import type { ApiKey } from '@/lib/topics';

/** An API key as Multiverbe's own API sends it. */
export type ApiKeyView = Wire<ApiKey>;

const keysKey = (workspaceId: string) => ['workspaces', workspaceId, 'api-keys'] as const;

/** Settings → API keys: create (the secret is shown once), see when each was last used, revoke. */
export function ApiKeys({ workspaceId, initialKeys }: { workspaceId: string; initialKeys: ApiKeyView[] }) {
  const { t, locale } = useI18n();
  const toast = useToast();
  const queryClient = useQueryClient();
  const key = keysKey(workspaceId);
  const keys = useQuery({ queryKey: key, queryFn: () => api<ApiKeyView[]>(`/api/workspaces/${workspaceId}/api-keys`), initialData: initialKeys });
  const revoke = useMutation({
    mutationFn: (apiKey: ApiKeyView) => api<ApiKeyView>(`/api/workspaces/${workspaceId}/api-keys/${apiKey.id}`, { method: 'DELETE' }),
    onSuccess: (revoked) => {
      queryClient.setQueryData<ApiKeyView[]>(key, (list) => (list ?? []).map((k) => (k.id === revoked.id ? revoked : k)));
      toast(t('topics.keyRevoked', { name: revoked.name }));
    },
    onError: (error) => toast(errorText(error, t), 'error'),
  });

  return (
    <div className="flex flex-col gap-6">
      <Card>
        <CardTitle>{t('topics.createKey')}</CardTitle>
        <div className="mt-3">
          <CreateKeyForm workspaceId={workspaceId} onCreated={(created) => queryClient.setQueryData<ApiKeyView[]>(key, (list) => [created, ...(list ?? [])])} />
        </div>
      </Card>
      <Card>
        <CardTitle>{t('topics.apiKeys')}</CardTitle>
        {keys.data.length === 0 ? (
          <p className="mt-2 text-[0.9375rem] text-muted">{t('topics.noKeys')}</p>
        ) : (
          <ul className="-mx-5 mt-3 divide-y divide-line sm:-mx-6">
            {keys.data.map((apiKey) => (
              <li key={apiKey.id} className="flex flex-wrap items-center gap-x-3 gap-y-2 px-5 py-3 sm:px-6">
                <div className="flex min-w-0 flex-1 flex-col">
                  <span className={`truncate font-semibold ${apiKey.revokedAt ? 'text-muted line-through' : ''}`}>{apiKey.name}</span>
                  <span className="text-sm text-muted">
                    <span className="font-mono">{t('topics.keyPrefixCreated', { prefix: apiKey.prefix, created: formatRelative(apiKey.createdAt, locale) })}</span> ·{' '}
                    <span title={apiKey.lastUsedAt ? formatDateTime(apiKey.lastUsedAt, locale) : undefined} suppressHydrationWarning>
                      {apiKey.lastUsedAt ? t('topics.lastUsed', { when: formatRelative(apiKey.lastUsedAt, locale) }) : t('topics.neverUsed')}
                    </span>
                  </span>
                </div>
                {apiKey.revokedAt ? (
                  <span className="rounded-full bg-subtle px-2.5 py-0.5 text-sm font-semibold text-muted">{t('topics.revoked')}</span>
                ) : (
                  <ConfirmButton label={t('topics.revokeNamed', { name: apiKey.name })} question={t('topics.revokeQuestion', { name: apiKey.name })} confirmLabel={t('topics.revoke')} onConfirm={() => revoke.mutate(apiKey)}>
                    {t('topics.revoke')}
                  </ConfirmButton>
                )}
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}

function CreateKeyForm({ workspaceId, onCreated }: { workspaceId: string; onCreated: (key: ApiKeyView) => void }) {
  const { t } = useI18n();
  const formRef = useRef<HTMLFormElement>(null);
  const [name, setName] = useState('');
  const [copied, setCopied] = useState(false);
  const create = useMutation({
    mutationFn: () => api<{ key: ApiKeyView; secret: string }>(`/api/workspaces/${workspaceId}/api-keys`, { body: { name: name.trim() } }),
    onSuccess: ({ key }) => {
      onCreated(key);
      setName('');
      setCopied(false);
    },
    onError: (error) => focusFirstError(formRef.current, fieldErrorsOf(error)),
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!create.isPending) create.mutate();
  }

  async function copy(secret: string) {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
    } catch {
      // Clipboard access can be refused; the key stays selectable in the field.
    }
  }

  return (
    <div className="flex flex-col gap-4">
      <form ref={formRef} onSubmit={submit} noValidate className="flex flex-col gap-4">
        {create.isError && !Object.keys(fieldErrorsOf(create.error)).length && <Alert tone="error">{errorText(create.error, t)}</Alert>}
        <TextField id="name" label={t('topics.keyName')} hint={t('topics.keyNameHint')} value={name} onChange={(e) => setName(e.target.value)} errors={fieldErrorsOf(create.error).name} autoComplete="off" maxLength={80} />
        <Button type="submit" pending={create.isPending} pendingLabel={t('topics.creating')} className="self-start">
          {t('topics.createKey')}
        </Button>
      </form>
      {create.isSuccess && (
        <Alert tone="success">
          <p className="mb-3">{t('topics.keyShownOnce')}</p>
          <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
            <input
              aria-label={create.data.key.name}
              readOnly
              value={create.data.secret}
              onFocus={(event) => event.currentTarget.select()}
              className="min-h-11 w-full min-w-0 flex-1 rounded-xl border border-line-strong bg-surface px-3 font-mono text-sm"
            />
            <Button variant="secondary" onClick={() => copy(create.data.secret)}>
              {copied ? t('topics.copied') : t('topics.copy')}
            </Button>
          </div>
        </Alert>
      )}
    </div>
  );
}

/** The workspace's queue concurrency (admins), saved by a server action. */
export function QueueSetting({ concurrency, save }: { concurrency: number; save: (concurrency: number) => Promise<{ error?: string }> }) {
  const { t } = useI18n();
  const toast = useToast();
  const [value, setValue] = useState(String(concurrency));
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    const { error } = await save(Number(value));
    setPending(false);
    toast(error ?? t('topics.queueSaved'), error ? 'error' : 'success');
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-4">
      <SelectField
        id="concurrency"
        label={t('topics.requestsAtOnce')}
        value={value}
        onChange={(event) => setValue(event.target.value)}
        options={Array.from({ length: 10 }, (_, i) => ({ value: String(i + 1), label: String(i + 1) }))}
      />
      <Button type="submit" variant="secondary" pending={pending} pendingLabel={t('common.saving')} className="self-start">
        {t('common.save')}
      </Button>
    </form>
  );
}
