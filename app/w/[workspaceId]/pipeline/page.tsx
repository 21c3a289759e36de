import type { Metadata } from 'next';
import { PipelineBoardView } from '@/components/pipeline/pipeline-board';
import { PageHeader } from '@/components/ui/page-header';
import { serialize } from '@/lib/api';
import { getI18n } from '@/lib/i18n/server';
import { CLOSED_SHOWN_DAYS, pipelineBoard } from '@/lib/sales';
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
      <PipelineBoardView workspaceId={workspace.id} initialBoard={board} closedDays={CLOSED_SHOWN_DAYS} />
    </>
  );
}
