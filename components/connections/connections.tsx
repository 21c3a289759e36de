'use client';

import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api, errorText } from '@/components/api/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardTitle } from '@/components/ui/card';
import { ConfirmButton } from '@/components/ui/confirm-button';
import type { Wire } from '@/lib/api';
import type { ConnectionView } from '@/lib/connections';
import type { MessageKey } from '@/lib/i18n';
import { formatDateTime } from '@/lib/i18n';
import { useI18n } from '@/lib/i18n/client';

export type ConnectionViewWire = Wire<ConnectionView>;

const PROVIDER_NAME = { google: 'connections.google', github: 'connections.github' } as const satisfies Record<ConnectionView['provider'], MessageKey>;
const PROVIDER_USE = { google: 'connections.googleUse', github: 'connections.githubUse' } as const satisfies Record<ConnectionView['provider'], MessageKey>;
const SCOPE_LABEL: Record<string, MessageKey> = {
  'https://www.googleapis.com/auth/gmail.compose': 'connections.scopeGmail',
  'https://www.googleapis.com/auth/calendar.events': 'connections.scopeCalendar',
  repo: 'connections.scopeRepo',
};

/** Settings → Connections: each provider's state, connect (to the provider's consent screen) and disconnect. */
export function Connections({ workspaceId, initial, canManage }: { workspaceId: string; initial: ConnectionViewWire[]; canManage: boolean }) {
  const { t, locale } = useI18n();
  const [views, setViews] = useState(initial);
  const [status, setStatus] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

  const connect = useMutation({
    mutationFn: (provider: ConnectionView['provider']) =>
      api<{ authorizationUrl: string }>(`/api/workspaces/${workspaceId}/connections`, { method: 'POST', body: { provider } }),
    onSuccess: ({ authorizationUrl }) => window.location.assign(authorizationUrl),
    onError: (error) => setStatus({ tone: 'error', text: errorText(error, t) }),
  });
  const disconnect = useMutation({
    mutationFn: (view: ConnectionViewWire) =>
      api<{ revokedAtProvider: boolean }>(`/api/workspaces/${workspaceId}/connections/${view.connection!.id}`, { method: 'DELETE' }),
    onSuccess: ({ revokedAtProvider }, view) => {
      setViews((list) => list.map((v) => (v.provider === view.provider ? { ...v, connection: null } : v)));
      const provider = t(PROVIDER_NAME[view.provider]);
      setStatus({ tone: 'success', text: t(revokedAtProvider ? 'connections.disconnected' : 'connections.disconnectedHereOnly', { provider }) });
    },
    onError: (error) => setStatus({ tone: 'error', text: errorText(error, t) }),
  });

  return (
    <div className="flex flex-col gap-4">
      {status && <Alert tone={status.tone}>{status.text}</Alert>}
      {views.map((view) => {
        const provider = t(PROVIDER_NAME[view.provider]);
        const headingId = `connection-${view.provider}`;
        return (
          <Card key={view.provider}>
            <section aria-labelledby={headingId}>
              <div className="flex flex-wrap items-start justify-between gap-3">
                <div className="min-w-0 flex-1">
                  <CardTitle id={headingId}>{provider}</CardTitle>
                  <p className="mt-1 text-[0.9375rem] text-pretty text-muted">{t(PROVIDER_USE[view.provider])}</p>
                </div>
                <span className={`rounded-full px-2.5 py-0.5 text-sm font-semibold ${view.connection ? 'bg-success-soft text-ink' : 'bg-subtle text-muted'}`}>
                  {view.connection ? t('connections.connectedAs', { account: view.connection.account }) : t('connections.notConnected')}
                </span>
              </div>
              {!view.configured ? (
                <p className="mt-3 text-[0.9375rem] text-pretty">{t('connections.notConfigured', { settings: view.missingSettings.join(', ') })}</p>
              ) : view.connection ? (
                <div className="mt-3 flex flex-col gap-3">
                  <div>
                    <h3 className="text-sm font-semibold text-muted">{t('connections.scopes')}</h3>
                    <ul className="mt-1 list-disc pl-5 text-[0.9375rem]">
                      {view.connection.scopes.map((scope) => (
                        <li key={scope}>{SCOPE_LABEL[scope] ? t(SCOPE_LABEL[scope]) : scope}</li>
                      ))}
                    </ul>
                    <p className="mt-2 text-sm text-muted" suppressHydrationWarning>
                      {t('connections.since', { date: formatDateTime(view.connection.createdAt, locale) })}
                    </p>
                  </div>
                  {canManage && (
                    <div>
                      <ConfirmButton
                        question={t('connections.disconnectQuestion', { provider })}
                        confirmLabel={t('connections.disconnect', { provider })}
                        onConfirm={() => disconnect.mutate(view)}
                        pending={disconnect.isPending && disconnect.variables?.provider === view.provider}
                      >
                        {t('connections.disconnect', { provider })}
                      </ConfirmButton>
                    </div>
                  )}
                </div>
              ) : canManage ? (
                <div className="mt-3">
                  <Button
                    onClick={() => connect.mutate(view.provider)}
                    pending={(connect.isPending || connect.isSuccess) && connect.variables === view.provider}
                    pendingLabel={t('connections.redirecting', { provider })}
                  >
                    {t('connections.connect', { provider })}
                  </Button>
                </div>
              ) : null}
            </section>
          </Card>
        );
      })}
    </div>
  );
}
