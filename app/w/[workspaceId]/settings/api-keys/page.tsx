import type { Metadata } from 'next';
import Link from 'next/link';
import { ApiKeys, QueueSetting } from '@/components/topics/api-keys';
import { Alert } from '@/components/ui/alert';
import { Card, CardTitle } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { serialize } from '@/lib/api';
import { mcpAddress } from '@/lib/mcp';
import { getI18n } from '@/lib/i18n/server';
import { listApiKeys, queueConcurrency } from '@/lib/topics';
import { currentWorkspace, type WorkspaceParams } from '../../current';
import { saveQueueConcurrency } from './actions';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getI18n()).t('topics.apiKeys') };
}

/** Keys for the topic API and MCP, and the queue's concurrency: owners and admins only. */
export default async function ApiKeysPage({ params }: { params: WorkspaceParams }) {
  const { workspaceId } = await params;
  const [{ user, workspace }, { t }] = await Promise.all([currentWorkspace(workspaceId), getI18n()]);
  const header = <PageHeader title={t('topics.apiKeys')} description={t('topics.apiKeysLead')} back={{ href: `/w/${workspace.id}/settings`, label: t('settings.title') }} />;
  if (workspace.role === 'member') {
    return (
      <>
        {header}
        <Alert>{t('topics.apiKeysAdminsOnly')}</Alert>
      </>
    );
  }
  const caller = { kind: 'user' as const, workspaceId: workspace.id, user };
  const [keys, queue] = await Promise.all([listApiKeys(user, workspace.id), queueConcurrency(caller)]);
  return (
    <>
      {header}
      <div className="flex flex-col gap-6">
        <ApiKeys workspaceId={workspace.id} initialKeys={serialize(keys)} />
        <Card>
          <CardTitle>{t('topics.mcp')}</CardTitle>
          <p className="mt-1 mb-3 text-[0.9375rem] text-pretty text-muted">{t('topics.mcpLead')}</p>
          <code className="block rounded-lg bg-subtle px-3 py-2 font-mono text-sm break-all">{mcpAddress()}</code>
        </Card>
        <Card>
          <CardTitle>{t('topics.queue')}</CardTitle>
          <p className="mt-1 mb-4 text-[0.9375rem] text-pretty text-muted">{t('topics.queueLead')}</p>
          <QueueSetting concurrency={queue.concurrency} save={saveQueueConcurrency.bind(null, workspace.id)} />
        </Card>
        <p className="text-[0.9375rem] text-muted">
          <Link href="/docs/api" className="font-semibold text-accent-ink underline">
            {t('topics.apiReference')}
          </Link>
        </p>
      </div>
    </>
  );
}
