'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { api, errorText } from '@/components/api/client';
import { Alert } from '@/components/ui/alert';
import { Button, buttonClass } from '@/components/ui/button';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { useToast } from '@/components/ui/toast';
import { splitLines } from '@/lib/artifacts/client';
import { formatDateTime, formatRelative } from '@/lib/i18n';
import { useI18n } from '@/lib/i18n/client';
import { ArtifactContent } from './artifact-content';
import { DiffView } from './diff-view';
import type { ArtifactCommentView, ArtifactDetailView, ArtifactVersionView, DiffResult } from './types';

type Tab = 'view' | 'edit' | 'history' | 'compare';

const detailKey = (id: string) => ['artifacts', id] as const;

/**
 * The artifact page: the content (current or a past version), its comments, and the ways to work
 * on it: edit (a new version), history (every version, each one restorable), compare (any two).
 */
export function ArtifactView({ initial }: { initial: ArtifactDetailView }) {
  const { locale, t } = useI18n();
  const toast = useToast();
  const queryClient = useQueryClient();
  const router = useRouter();
  const id = initial.id;
  const detail = useQuery({ queryKey: detailKey(id), queryFn: () => api<ArtifactDetailView>(`/api/artifacts/${id}`), initialData: initial }).data;
  const [tab, setTab] = useState<Tab>('view');
  const [shown, setShown] = useState<number | null>(null);
  const viewing = shown ?? detail.currentVersion;

  const past = useQuery({
    queryKey: ['artifacts', id, 'versions', viewing],
    queryFn: () => api<ArtifactVersionView>(`/api/artifacts/${id}/versions/${viewing}`),
    enabled: viewing !== detail.currentVersion,
  });
  const version = viewing === detail.currentVersion ? detail.current : past.data;

  const restore = useMutation({
    mutationFn: (n: number) => api<ArtifactDetailView>(`/api/artifacts/${id}/restore`, { body: { version: n } }),
    onSuccess: (next, n) => {
      queryClient.setQueryData(detailKey(id), next);
      void queryClient.invalidateQueries({ queryKey: ['artifacts', id, 'comments'] });
      setShown(null);
      setTab('view');
      // The page header (title, version) is the server's: render it again.
      router.refresh();
      toast(t('artifacts.restored', { n, m: next.currentVersion }));
    },
    onError: (error) => toast(t('artifacts.restoreFailed', { reason: errorText(error, t) }), 'error'),
  });

  const exportHref = (format: 'file' | 'pdf') => `/api/artifacts/${id}/export?version=${viewing}&format=${format}`;
  const canPdf = detail.kind === 'document' || detail.kind === 'code' || detail.kind === 'table';
  const tabs: Tab[] = detail.kind === 'image' ? ['view', 'edit', 'history'] : ['view', 'edit', 'history', 'compare'];

  return (
    <div className="flex flex-col gap-5">
      {/* Printing shows the artifact alone. */}
      <style>{`@media print { body * { visibility: hidden !important; } [data-print], [data-print] * { visibility: visible !important; } [data-print] { position: absolute; inset: 0; } }`}</style>

      <div className="grid grid-cols-4 gap-2 sm:flex" role="group" aria-label={t('artifacts.sections')}>
        {tabs.map((name) => (
          <button
            key={name}
            type="button"
            aria-pressed={tab === name}
            onClick={() => setTab(name)}
            className={`min-h-11 rounded-xl px-2 text-sm font-semibold sm:px-4 sm:text-[0.9375rem] ${tab === name ? 'bg-ink text-bg' : 'border border-line-strong/60 hover:bg-subtle'}`}
          >
            {t(`artifacts.tab.${name}`)}
          </button>
        ))}
      </div>

      {tab === 'view' && (
        <>
          {viewing !== detail.currentVersion && (
            <Alert>
              <p>{t('artifacts.viewingOld', { n: viewing, current: detail.currentVersion })}</p>
              <div className="mt-2 flex flex-wrap gap-2">
                <Button variant="secondary" onClick={() => setShown(null)}>
                  {t('artifacts.showCurrent')}
                </Button>
                <RestoreButton n={viewing} pending={restore.isPending} onRestore={() => restore.mutate(viewing)} />
              </div>
            </Alert>
          )}
          <div className="flex flex-wrap items-center gap-2">
            <a className={buttonClass('secondary')} href={exportHref('file')} download>
              {t('artifacts.download')}
            </a>
            {canPdf && (
              <a className={buttonClass('secondary')} href={exportHref('pdf')} download>
                {t('artifacts.downloadPdf')}
              </a>
            )}
            {detail.kind === 'document' && (
              <Button variant="ghost" onClick={() => window.print()}>
                {t('artifacts.print')}
              </Button>
            )}
          </div>
          <section data-print className="rounded-2xl border border-line bg-surface p-4 shadow-card sm:p-6" aria-label={t('artifacts.version', { n: viewing })}>
            {version ? <ArtifactContent kind={detail.kind} title={version.title} language={version.language} content={version.content} /> : <p className="text-muted">{t('artifacts.loading')}</p>}
          </section>
          {version && <Comments artifactId={id} version={viewing} content={detail.kind === 'image' ? '' : version.content} />}
        </>
      )}

      {tab === 'edit' && (
        <EditForm
          key={detail.currentVersion}
          detail={detail}
          onSaved={(next) => {
            queryClient.setQueryData(detailKey(id), next);
            setShown(null);
            setTab('view');
            router.refresh();
            toast(t('artifacts.saved', { n: next.currentVersion }));
          }}
        />
      )}

      {tab === 'history' && (
        <ol className="flex flex-col gap-2" aria-label={t('artifacts.tab.history')}>
          {detail.versions.map((v) => (
            <li key={v.version} className="flex flex-col gap-2 rounded-2xl border border-line bg-surface p-4 sm:flex-row sm:items-center sm:justify-between">
              <div className="flex flex-col gap-0.5">
                <p className="font-semibold">
                  {t('artifacts.version', { n: v.version })}
                  {v.version === detail.currentVersion && <span className="ml-2 rounded-full bg-success-soft px-2 py-0.5 text-xs font-semibold text-success">{t('artifacts.current')}</span>}
                </p>
                <p className="text-sm text-muted" suppressHydrationWarning>
                  {t('artifacts.versionBy', { name: v.author.name, when: formatRelative(v.createdAt, locale) })}
                  {' · '}
                  <time dateTime={v.createdAt}>{formatDateTime(v.createdAt, locale)}</time>
                </p>
                {(v.note || v.restoredFrom) && <p className="text-sm">{v.note || t('artifacts.restoredFrom', { n: v.restoredFrom! })}</p>}
              </div>
              <div className="flex gap-2">
                <Button
                  variant="secondary"
                  aria-label={t('artifacts.showNamed', { n: v.version })}
                  onClick={() => {
                    setShown(v.version === detail.currentVersion ? null : v.version);
                    setTab('view');
                  }}
                >
                  {t('artifacts.show')}
                </Button>
                {v.version !== detail.currentVersion && <RestoreButton n={v.version} pending={restore.isPending && restore.variables === v.version} onRestore={() => restore.mutate(v.version)} />}
              </div>
            </li>
          ))}
        </ol>
      )}

      {tab === 'compare' && <Compare artifactId={id} detail={detail} />}
    </div>
  );
}

function RestoreButton({ n, pending, onRestore }: { n: number; pending: boolean; onRestore: () => void }) {
  const { t } = useI18n();
  return (
    <ConfirmButton label={t('artifacts.restoreNamed', { n })} question={t('artifacts.restoreQuestion', { n })} confirmLabel={t('artifacts.restoreNamed', { n })} onConfirm={onRestore} pending={pending}>
      {t('artifacts.restore')}
    </ConfirmButton>
  );
}

function EditForm({ detail, onSaved }: { detail: ArtifactDetailView; onSaved: (next: ArtifactDetailView) => void }) {
  const { t } = useI18n();
  const [title, setTitle] = useState(detail.title);
  const [content, setContent] = useState(detail.current.content);
  const [note, setNote] = useState('');
  const save = useMutation({
    mutationFn: () => api<ArtifactDetailView>(`/api/artifacts/${detail.id}/versions`, { body: { title, content, note, baseVersion: detail.currentVersion } }),
    onSuccess: onSaved,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const control = 'w-full rounded-xl border border-line-strong bg-surface px-3.5 py-2.5 text-base text-ink';
  return (
    <form onSubmit={submit} className="flex flex-col gap-4">
      {save.isError && <Alert tone="error">{t('artifacts.saveFailed', { reason: errorText(save.error, t) })}</Alert>}
      <label className="flex flex-col gap-1.5 text-sm font-semibold">
        {t('artifacts.field.title')}
        <input className={`${control} min-h-11`} value={title} onChange={(e) => setTitle(e.target.value)} required maxLength={200} />
      </label>
      <label className="flex flex-col gap-1.5 text-sm font-semibold">
        {t('artifacts.field.content')}
        <textarea
          className={`${control} min-h-80 font-mono text-sm leading-relaxed`}
          value={content}
          onChange={(e) => setContent(e.target.value)}
          spellCheck={detail.kind === 'document'}
        />
      </label>
      <label className="flex flex-col gap-1.5 text-sm font-semibold">
        {t('artifacts.field.note')}
        <input className={`${control} min-h-11`} value={note} onChange={(e) => setNote(e.target.value)} maxLength={300} />
      </label>
      <div>
        <Button type="submit" pending={save.isPending} pendingLabel={t('artifacts.saving')}>
          {t('artifacts.save', { n: detail.currentVersion + 1 })}
        </Button>
      </div>
    </form>
  );
}

function Compare({ artifactId, detail }: { artifactId: string; detail: ArtifactDetailView }) {
  const { t } = useI18n();
  const [from, setFrom] = useState(Math.max(1, detail.currentVersion - 1));
  const [to, setTo] = useState(detail.currentVersion);
  const diff = useQuery({
    queryKey: ['artifacts', artifactId, 'diff', from, to],
    queryFn: () => api<DiffResult>(`/api/artifacts/${artifactId}/diff?from=${from}&to=${to}`),
  });
  const select = (label: string, value: number, onChange: (n: number) => void) => (
    <label className="flex flex-col gap-1.5 text-sm font-semibold">
      {label}
      <select className="min-h-11 rounded-xl border border-line-strong bg-surface px-3 text-base" value={value} onChange={(e) => onChange(Number(e.target.value))}>
        {detail.versions.map((v) => (
          <option key={v.version} value={v.version}>
            {t('artifacts.version', { n: v.version })}
            {v.version === detail.currentVersion ? ` (${t('artifacts.current')})` : ''}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <div className="flex flex-col gap-4">
      <div className="grid grid-cols-2 gap-3">
        {select(t('artifacts.compareFrom'), from, setFrom)}
        {select(t('artifacts.compareTo'), to, setTo)}
      </div>
      {diff.isError && <Alert tone="error">{t('artifacts.loadFailed', { reason: errorText(diff.error, t) })}</Alert>}
      {diff.data ? <DiffView diff={diff.data} /> : !diff.isError && <p className="text-muted">{t('artifacts.loading')}</p>}
    </div>
  );
}

function Comments({ artifactId, version, content }: { artifactId: string; version: number; content: string }) {
  const { locale, t } = useI18n();
  const queryClient = useQueryClient();
  const key = ['artifacts', artifactId, 'comments', version];
  const comments = useQuery({ queryKey: key, queryFn: () => api<ArtifactCommentView[]>(`/api/artifacts/${artifactId}/comments?version=${version}`) });
  const lines = splitLines(content);
  const [body, setBody] = useState('');
  const [line, setLine] = useState('');
  const add = useMutation({
    mutationFn: () => api<ArtifactCommentView>(`/api/artifacts/${artifactId}/comments`, { body: { version, body, ...(line ? { line: Number(line) } : {}) } }),
    onSuccess: () => {
      setBody('');
      setLine('');
      void queryClient.invalidateQueries({ queryKey: ['artifacts', artifactId, 'comments'] });
    },
  });
  const where = (c: ArtifactCommentView) => {
    const p = c.placement;
    if (p.status === 'here') return p.line === null ? t('artifacts.placement.whole') : t('artifacts.placement.here', { line: p.line });
    if (p.status === 'carried') return t('artifacts.placement.carried', { line: p.line, v: c.version });
    return t(p.status === 'outdated' ? 'artifacts.placement.outdated' : 'artifacts.placement.general', { v: c.version });
  };
  return (
    <section className="flex flex-col gap-3" aria-labelledby="comments-heading">
      <h2 id="comments-heading" className="text-lg font-semibold">
        {t('artifacts.comments')}
      </h2>
      {comments.data?.length === 0 && <p className="text-[0.9375rem] text-muted">{t('artifacts.noComments')}</p>}
      <ul className="flex flex-col gap-2">
        {comments.data?.map((c) => (
          <li key={c.id} className={`rounded-xl border border-line p-3 ${c.placement.status === 'outdated' ? 'bg-subtle' : 'bg-surface'}`}>
            <p className="text-sm text-muted" suppressHydrationWarning>
              <span className="font-semibold text-ink">{c.author.name}</span> · {where(c)} · {formatRelative(c.createdAt, locale)}
            </p>
            {c.quote && <p className="mt-1 truncate border-l-2 border-line-strong/40 pl-2 font-mono text-xs text-muted">{c.quote}</p>}
            <p className="mt-1 text-[0.9375rem] whitespace-pre-wrap">{c.body}</p>
          </li>
        ))}
      </ul>
      <form
        className="flex flex-col gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          if (body.trim()) add.mutate();
        }}
      >
        {add.isError && <Alert tone="error">{t('artifacts.commentFailed', { reason: errorText(add.error, t) })}</Alert>}
        {lines.length > 0 && lines.length <= 500 && (
          <label className="flex flex-col gap-1.5 text-sm font-semibold">
            {t('artifacts.commentOn')}
            <select className="min-h-11 rounded-xl border border-line-strong bg-surface px-3 text-base" value={line} onChange={(e) => setLine(e.target.value)}>
              <option value="">{t('artifacts.wholeVersion')}</option>
              {lines.map((text, n) =>
                text.trim() ? (
                  <option key={n} value={n + 1}>
                    {t('artifacts.lineN', { n: n + 1, text: text.slice(0, 60) })}
                  </option>
                ) : null,
              )}
            </select>
          </label>
        )}
        <label className="flex flex-col gap-1.5 text-sm font-semibold">
          {t('artifacts.addComment')}
          <textarea className="min-h-20 rounded-xl border border-line-strong bg-surface px-3.5 py-2.5 text-base" value={body} onChange={(e) => setBody(e.target.value)} maxLength={4000} />
        </label>
        <div>
          <Button type="submit" variant="secondary" pending={add.isPending} pendingLabel={t('artifacts.posting')} disabled={!body.trim()}>
            {t('artifacts.postComment')}
          </Button>
        </div>
      </form>
    </section>
  );
}
