import type { Metadata } from 'next';
import Link from 'next/link';
import { PipelineBoardView } from '@/components/pipeline/pipeline-board';
import { buttonClass } from '@/components/ui/button';
import { PageHeader } from '@/components/ui/page-header';
import { serialize } from '@/lib/api';
import { getI18n } from '@/lib/i18n/server';
import { CLOSED_SHOWN_DAYS, isManager, pipelineBoard } from '@/lib/sales';
import { currentWorkspace, type WorkspaceParams } from '../current';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getI18n()).t('pipeline.title') };
}

/** Sales → Pipeline: open deals by stage, filtered by owner; every member moves deals and marks them won or lost. */
export default async function PipelinePage({ params }: { params: WorkspaceParams }) {
  const { workspaceId } = await params;
  const [{ user, workspace }, { t }] = await Promise.all([currentWorkspace(workspaceId), getI18n()]);
  const board = serialize(await pipelineBoard(user, workspace.id, {}));
  return (
    <>
      <PageHeader title={t('pipeline.title')} description={t('pipeline.lead')} back={{ href: `/w/${workspace.id}/planets/sales`, label: t('pipeline.back') }} />
      {isManager(workspace.role) && (
        <Link href={`/w/${workspace.id}/pipeline/setup`} className={buttonClass('secondary', 'mb-6 w-full sm:w-auto')}>
          {t('sales.setup.open')}
        </Link>
      )}
      <PipelineBoardView workspaceId={workspace.id} initialBoard={board} closedDays={CLOSED_SHOWN_DAYS} />
    </>
  );
}
