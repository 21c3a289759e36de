import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { ArtifactView } from '@/components/artifacts/artifact-view';
import { PageHeader } from '@/components/ui/page-header';
import { ApiError, serialize } from '@/lib/api';
import { getArtifact } from '@/lib/artifacts';
import { formatRelative } from '@/lib/i18n';
import { getI18n } from '@/lib/i18n/server';
import { currentWorkspace } from '../../current';

type Params = Promise<{ workspaceId: string; artifactId: string }>;

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getI18n()).t('artifacts.title') };
}

export default async function ArtifactPage({ params }: { params: Params }) {
  const { workspaceId, artifactId } = await params;
  const [{ user, workspace }, { t, locale }] = await Promise.all([currentWorkspace(workspaceId), getI18n()]);
  // Readable exactly when its conversation is: anyone else gets the same 404 as for a missing one.
  const artifact = await getArtifact({ kind: 'person', user }, artifactId).catch((error) => {
    if (error instanceof ApiError && error.code === 'not_found') notFound();
    throw error;
  });
  if (artifact.workspaceId !== workspace.id) notFound();
  const base = `/w/${workspace.id}/artifacts`;

  return (
    <>
      <PageHeader
        title={artifact.title}
        back={{ href: base, label: t('artifacts.title') }}
        description={
          <>
            {t(`artifacts.kind.${artifact.kind}`)}
            {artifact.language ? ` · ${artifact.language}` : ''} · {t('artifacts.version', { n: artifact.currentVersion })} ·{' '}
            {t('artifacts.updated', { when: formatRelative(artifact.updatedAt, locale) })} ·{' '}
            <Link className="font-semibold text-accent-ink underline underline-offset-2" href={`${base}?conversation=${artifact.conversationId}`}>
              {t('artifacts.in', { conversation: artifact.conversationName ?? t('artifacts.directMessage') })}
            </Link>
          </>
        }
      />
      <ArtifactView initial={serialize(artifact)} />
    </>
  );
}
