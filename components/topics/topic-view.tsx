'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useEffect, useState, type FormEvent } from 'react';
import { errorText } from '@/components/api/client';
import { Alert } from '@/components/ui/alert';
import { Button, buttonClass } from '@/components/ui/button';
import { Card, CardTitle } from '@/components/ui/card';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { TextAreaField } from '@/components/ui/field';
import { useToast } from '@/components/ui/toast';
import { formatDateTime, formatRelative } from '@/lib/i18n';
import { useI18n } from '@/lib/i18n/client';
import { isUnfinished, LIVE_MS, topicApi, topicKey, topicRequestsKey, type RequestWire, type TopicWire } from './client';
import { CheckboxField } from './fields';
import { StatusBadge } from './status-badge';

/**
 * One topic: its prompt, model and summary, a way to queue a request, and its requests with their
 * status, refreshed every few seconds while any is waiting or running.
 */
export function TopicView({
  workspaceId,
  initialTopic,
  initialRequests,
  defaultModel,
}: {
  workspaceId: string;
  initialTopic: TopicWire;
  initialRequests: RequestWire[];
  defaultModel: string;
}) {
  const { t } = useI18n();
  const toast = useToast();
  const router = useRouter();
  const queryClient = useQueryClient();
  const topic = useQuery({
    queryKey: topicKey(workspaceId, initialTopic.id),
    queryFn: () => topicApi<TopicWire>(workspaceId, `/api/topics/${initialTopic.id}`),
    initialData: initialTopic,
  }).data;
  const requests = useQuery({
    queryKey: topicRequestsKey(workspaceId, initialTopic.id),
    queryFn: () => topicApi<RequestWire[]>(workspaceId, `/api/requests?topic_id=${initialTopic.id}&limit=50`),
    initialData: initialRequests,
    refetchInterval: (query) => (query.state.data?.some(isUnfinished) ? LIVE_MS : false),
  });
  const anyUnfinished = requests.data.some(isUnfinished);
  // A request sent with "summarize" adds its line to the topic as it completes: re-read the topic then.
  const completed = requests.data.filter((r) => r.status === 'completed').length;
  useEffect(() => {
    void queryClient.invalidateQueries({ queryKey: topicKey(workspaceId, initialTopic.id), exact: true });
  }, [completed, queryClient, workspaceId, initialTopic.id]);

  const summarize = useMutation({
    mutationFn: () => topicApi<TopicWire>(workspaceId, `/api/topics/${initialTopic.id}/summarize`, { method: 'POST' }),
    onSuccess: (updated) => {
      queryClient.setQueryData(topicKey(workspaceId, initialTopic.id), updated);
      toast(t('topics.summaryRewritten'));
    },
    onError: (error) => toast(errorText(error, t), 'error'),
  });
  const remove = useMutation({
    mutationFn: () => topicApi(workspaceId, `/api/topics/${initialTopic.id}`, { method: 'DELETE' }),
    onSuccess: () => {
      toast(t('topics.topicDeleted', { name: topic.name }));
      router.push(`/w/${workspaceId}/topics`);
      router.refresh();
    },
    onError: (error) => toast(errorText(error, t), 'error'),
  });

  return (
    <div className="flex flex-col gap-6">
      <Card>
        <div className="flex flex-wrap items-start justify-between gap-3">
          <CardTitle>{t('topics.systemPrompt')}</CardTitle>
          <Link href={`/w/${workspaceId}/topics/${topic.id}/edit`} className={buttonClass('secondary')}>
            {t('topics.edit')}
          </Link>
        </div>
        <p className="mt-2 max-h-60 overflow-y-auto text-[0.9375rem] whitespace-pre-wrap text-pretty">{topic.system_prompt || '—'}</p>
        <p className="mt-3 text-sm text-muted">
          {t('topics.model')}: <span className="font-mono">{topic.model ?? t('topics.defaultModel', { model: defaultModel })}</span>
        </p>
      </Card>

      <Card>
        <CardTitle>{t('topics.summary')}</CardTitle>
        <p className="mt-2 text-[0.9375rem] whitespace-pre-wrap text-pretty">{topic.summary || <span className="text-muted">{t('topics.noSummary')}</span>}</p>
        {requests.data.some((r) => r.status === 'completed') && (
          <Button variant="secondary" className="mt-4" pending={summarize.isPending} pendingLabel={t('topics.summarizing')} onClick={() => summarize.mutate()}>
            {t('topics.summarizeAll')}
          </Button>
        )}
      </Card>

      <AskCard workspaceId={workspaceId} topicId={topic.id} />

      <Card>
        <CardTitle>{t('topics.requests')}</CardTitle>
        {requests.data.length === 0 ? (
          <p className="mt-2 text-[0.9375rem] text-pretty text-muted">{t('topics.noRequests')}</p>
        ) : (
          <>
            {anyUnfinished && <p className="mt-1 text-sm text-muted">{t('topics.updatesLive')}</p>}
            <ul className="-mx-5 mt-3 divide-y divide-line sm:-mx-6">
              {requests.data.map((request) => (
                <RequestItem key={request.id} workspaceId={workspaceId} request={request} />
              ))}
            </ul>
          </>
        )}
      </Card>

      <Card tone="danger">
        <CardTitle>{t('topics.deleteTopic')}</CardTitle>
        <div className="mt-3">
          <ConfirmButton question={t('topics.deleteTopicQuestion')} confirmLabel={t('topics.delete')} onConfirm={() => remove.mutate()} pending={remove.isPending}>
            {t('topics.deleteTopic')}
          </ConfirmButton>
        </div>
      </Card>
    </div>
  );
}

function AskCard({ workspaceId, topicId }: { workspaceId: string; topicId: string }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [prompt, setPrompt] = useState('');
  const [summarize, setSummarize] = useState(false);
  const [missing, setMissing] = useState(false);
  const send = useMutation({
    mutationFn: () => topicApi(workspaceId, '/api/requests', { body: { prompt, topic_id: topicId, summarize } }),
    onSuccess: () => {
      setPrompt('');
      void queryClient.invalidateQueries({ queryKey: topicRequestsKey(workspaceId, topicId) });
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
      <CardTitle>{t('topics.ask')}</CardTitle>
      <p className="mt-1 mb-4 text-[0.9375rem] text-pretty text-muted">{t('topics.askLead')}</p>
      <form onSubmit={submit} noValidate className="flex flex-col gap-3">
        {send.isError && <Alert tone="error">{errorText(send.error, t)}</Alert>}
        <TextAreaField
          id="prompt"
          label={t('topics.prompt')}
          value={prompt}
          rows={4}
          onChange={(event) => {
            setPrompt(event.target.value);
            setMissing(false);
          }}
          errors={missing ? [t('topics.promptRequired')] : undefined}
        />
        <CheckboxField id="summarize" label={t('topics.summarizeExchange')} checked={summarize} onChange={(event) => setSummarize(event.target.checked)} />
        <Button type="submit" pending={send.isPending} pendingLabel={t('topics.sending')} className="self-start">
          {t('topics.send')}
        </Button>
      </form>
    </Card>
  );
}

function RequestItem({ workspaceId, request }: { workspaceId: string; request: RequestWire }) {
  const { t, locale } = useI18n();
  const toast = useToast();
  const queryClient = useQueryClient();
  const withdraw = useMutation({
    mutationFn: () => topicApi(workspaceId, `/api/requests/${request.id}`, { method: 'DELETE' }),
    onSuccess: () => {
      toast(t('topics.requestWithdrawn'));
      void queryClient.invalidateQueries({ queryKey: topicRequestsKey(workspaceId, request.topic_id) });
    },
    onError: (error) => toast(errorText(error, t), 'error'),
  });
  const answer = request.status === 'failed' ? request.error : request.result;

  return (
    <li className="flex flex-col gap-2 px-5 py-4 sm:px-6">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <StatusBadge status={request.status} />
        <time dateTime={request.created_at} title={formatDateTime(request.created_at, locale)} className="text-sm text-muted" suppressHydrationWarning>
          {formatRelative(request.created_at, locale)}
        </time>
        {request.resolved_model && <span className="font-mono text-sm text-muted">{request.resolved_model}</span>}
      </div>
      <p className="line-clamp-3 font-semibold text-pretty whitespace-pre-wrap">{request.prompt}</p>
      {answer && <p className={`line-clamp-4 text-[0.9375rem] whitespace-pre-wrap text-pretty ${request.status === 'failed' ? 'text-danger' : 'text-muted'}`}>{answer}</p>}
      <div className="flex flex-wrap gap-2">
        <Link href={`/w/${workspaceId}/topics/${request.topic_id}/sessions/${request.session_id}`} className={buttonClass('ghost', '-ml-4')}>
          {t('topics.openConversation')}
        </Link>
        {request.status === 'pending' && (
          <Button variant="secondary" pending={withdraw.isPending} onClick={() => withdraw.mutate()}>
            {t('topics.withdraw')}
          </Button>
        )}
      </div>
    </li>
  );
}
