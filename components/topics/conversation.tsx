'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { errorText } from '@/components/api/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { TextAreaField } from '@/components/ui/field';
import { useToast } from '@/components/ui/toast';
import { formatDateTime } from '@/lib/i18n';
import { useI18n } from '@/lib/i18n/client';
import { isUnfinished, LIVE_MS, sessionKey, topicApi, type RequestWire, type SessionView } from './client';
import { CheckboxField } from './fields';
import { StatusBadge } from './status-badge';

/**
 * A session as a conversation: each request is the person's turn, its result Claude's. Refreshes while
 * a turn is waiting or running; a reply continues the session (the whole conversation goes to Claude).
 */
export function Conversation({ workspaceId, initial }: { workspaceId: string; initial: SessionView }) {
  const { t } = useI18n();
  const toast = useToast();
  const queryClient = useQueryClient();
  const key = sessionKey(workspaceId, initial.id);
  const session = useQuery({
    queryKey: key,
    queryFn: () => topicApi<SessionView>(workspaceId, `/api/sessions/${initial.id}`),
    initialData: initial,
    refetchInterval: (query) => (query.state.data?.requests.some(isUnfinished) ? LIVE_MS : false),
  }).data;
  const close = useMutation({
    mutationFn: () => topicApi(workspaceId, `/api/sessions/${initial.id}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key }),
    onError: (error) => toast(errorText(error, t), 'error'),
  });

  return (
    <div className="flex flex-col gap-6">
      <ol className="flex flex-col gap-4" aria-label={t('topics.conversation')}>
        {session.requests.map((request) => (
          <Turn key={request.id} request={request} />
        ))}
      </ol>
      {session.closed_at ? (
        <Alert>{t('topics.sessionClosed')}</Alert>
      ) : (
        <>
          <Reply workspaceId={workspaceId} session={session} />
          <div>
            <ConfirmButton question={t('topics.closeSessionQuestion')} confirmLabel={t('topics.close')} onConfirm={() => close.mutate()} pending={close.isPending}>
              {t('topics.closeSession')}
            </ConfirmButton>
          </div>
        </>
      )}
    </div>
  );
}

function Turn({ request }: { request: RequestWire }) {
  const { t, locale } = useI18n();
  return (
    <li className="flex flex-col gap-2">
      <div className="ml-8 flex flex-col gap-1 self-end rounded-2xl rounded-br-md bg-accent-soft px-4 py-3 sm:ml-16">
        <span className="text-sm font-semibold text-accent-ink">
          {t('topics.you')} ·{' '}
          <time dateTime={request.created_at} suppressHydrationWarning>
            {formatDateTime(request.created_at, locale)}
          </time>
        </span>
        <p className="text-[0.9375rem] whitespace-pre-wrap text-pretty">{request.prompt}</p>
      </div>
      <div className="mr-8 flex flex-col gap-1 self-start rounded-2xl rounded-bl-md border border-line bg-surface px-4 py-3 shadow-card sm:mr-16">
        <span className="flex flex-wrap items-center gap-2 text-sm font-semibold">
          {t('topics.claude')}
          {request.status !== 'completed' && <StatusBadge status={request.status} />}
        </span>
        {request.status === 'completed' && <p className="text-[0.9375rem] whitespace-pre-wrap text-pretty">{request.result}</p>}
        {request.status === 'failed' && <p className="text-[0.9375rem] whitespace-pre-wrap text-danger">{request.error}</p>}
        {isUnfinished(request) && <p className="text-[0.9375rem] text-muted">{request.status === 'pending' ? t('topics.waitingInQueue') : t('topics.claudeAnswering')}</p>}
      </div>
    </li>
  );
}

function Reply({ workspaceId, session }: { workspaceId: string; session: SessionView }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [prompt, setPrompt] = useState('');
  const [summarize, setSummarize] = useState(false);
  const [missing, setMissing] = useState(false);
  const send = useMutation({
    mutationFn: () => topicApi(workspaceId, '/api/requests', { body: { prompt, topic_id: session.topic_id, session_id: session.id, summarize } }),
    onSuccess: () => {
      setPrompt('');
      void queryClient.invalidateQueries({ queryKey: sessionKey(workspaceId, session.id) });
    },
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (send.isPending) return;
    if (!prompt.trim()) return setMissing(true);
    send.mutate();
  }

  return (
    <Card>
      <form onSubmit={submit} noValidate className="flex flex-col gap-3">
        {send.isError && <Alert tone="error">{errorText(send.error, t)}</Alert>}
        <TextAreaField
          id="reply"
          label={t('topics.continueConversation')}
          value={prompt}
          rows={3}
          onChange={(event) => {
            setPrompt(event.target.value);
            setMissing(false);
          }}
          errors={missing ? [t('topics.promptRequired')] : undefined}
        />
        <CheckboxField id="reply-summarize" label={t('topics.summarizeExchange')} checked={summarize} onChange={(event) => setSummarize(event.target.checked)} />
        <Button type="submit" pending={send.isPending} pendingLabel={t('topics.sending')} className="self-start">
          {t('topics.send')}
        </Button>
      </form>
    </Card>
  );
}
