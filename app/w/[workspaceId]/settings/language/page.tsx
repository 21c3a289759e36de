import type { Metadata } from 'next';
import { LanguageSwitch } from '@/components/settings/language-switch';
import { Card } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { getI18n } from '@/lib/i18n/server';
import { currentWorkspace, type WorkspaceParams } from '../../current';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getI18n()).t('settings.language') };
}

export default async function LanguagePage({ params }: { params: WorkspaceParams }) {
  const { workspaceId } = await params;
  const [{ workspace }, { t }] = await Promise.all([currentWorkspace(workspaceId), getI18n()]);
  return (
    <>
      <PageHeader
        title={t('settings.language')}
        description={t('language.lead')}
        back={{ href: `/w/${workspace.id}/settings`, label: t('settings.title') }}
      />
      <Card>
        <LanguageSwitch />
        <p className="mt-4 text-sm text-pretty text-muted">{t('language.workspaceNote')}</p>
      </Card>
    </>
  );
}
