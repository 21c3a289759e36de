import type { Metadata } from 'next';
import Link from 'next/link';
import { OrbitArt } from '@/components/ui/art';
import { buttonClass } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { ChevronRightIcon, PlusIcon } from '@/components/ui/icons';
import { PageHeader } from '@/components/ui/page-header';
import { config } from '@/lib/config';
import { getI18n } from '@/lib/i18n/server';
import { listTopics, requestCounts } from '@/lib/topics';
import type { WorkspaceParams } from '../current';
import { pageCaller } from './caller';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getI18n()).t('topics.title') };
}

/** Every topic of the workspace: name, model, the start of its prompt and summary, its requests by status. */
export default async function TopicsPage({ params }: { params: WorkspaceParams }) {
  const { workspaceId } = await params;
  const [{ caller, workspace }, { t }] = await Promise.all([pageCaller(workspaceId), getI18n()]);
  const [topics, counts] = await Promise.all([listTopics(caller), requestCounts(caller)]);
  const base = `/w/${workspace.id}/topics`;

  return (
    <>
      <PageHeader title={t('topics.title')} description={t('topics.lead')} />
      <div className="mb-6 flex flex-wrap gap-2">
        <Link href={`${base}/new`} className={buttonClass('primary')}>
          <PlusIcon />
          {t('topics.newTopic')}
        </Link>
        <Link href="/docs/api" className={buttonClass('secondary')}>
          {t('topics.apiReference')}
        </Link>
      </div>
      {topics.length === 0 ? (
        <EmptyState art={<OrbitArt />} title={t('topics.emptyTitle')} body={t('topics.emptyBody')} />
      ) : (
        <ul className="divide-y divide-line overflow-hidden rounded-2xl border border-line bg-surface shadow-card">
          {topics.map((topic) => {
            const c = counts[topic.id] ?? { pending: 0, processing: 0, completed: 0, failed: 0 };
            return (
              <li key={topic.id}>
                <Link href={`${base}/${topic.id}`} className="flex min-h-16 items-center gap-4 px-4 py-4 hover:bg-subtle sm:px-5">
                  <span className="flex min-w-0 flex-1 flex-col gap-1">
                    <span className="flex flex-wrap items-baseline gap-x-2">
                      <span className="font-semibold">{topic.name}</span>
                      <span className="font-mono text-sm text-muted">{topic.model ?? t('topics.defaultModel', { model: config().CLAUDE_MODEL })}</span>
                    </span>
                    {topic.system_prompt && <span className="line-clamp-2 text-sm text-pretty text-muted">{topic.system_prompt}</span>}
                    {topic.summary && <span className="line-clamp-2 text-sm text-pretty">{topic.summary}</span>}
                    <span className="text-sm text-muted">{t('topics.requestCounts', { pending: c.pending + c.processing, done: c.completed, failed: c.failed })}</span>
                  </span>
                  <ChevronRightIcon className="shrink-0 text-muted" />
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </>
  );
}
