import type { Metadata } from 'next';
import { DataExport, DataImport } from '@/components/imports/data-import';
import { Alert } from '@/components/ui/alert';
import { PageHeader } from '@/components/ui/page-header';
import { getI18n } from '@/lib/i18n/server';
import { currentWorkspace, type WorkspaceParams } from '../../current';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getI18n()).t('dataImport.title') };
}

/** Settings → Data: import customers, services, staff and appointments from CSV, export them. Owners and admins only. */
export default async function DataPage({ params }: { params: WorkspaceParams }) {
  const { workspaceId } = await params;
  const [{ workspace }, { t }] = await Promise.all([currentWorkspace(workspaceId), getI18n()]);
  const header = <PageHeader title={t('dataImport.title')} description={t('dataImport.lead')} back={{ href: `/w/${workspace.id}/settings`, label: t('settings.title') }} />;
  if (workspace.role === 'member') {
    return (
      <>
        {header}
        <Alert>{t('dataImport.managersOnly')}</Alert>
      </>
    );
  }
  return (
    <>
      {header}
      <div className="flex flex-col gap-6">
        <DataImport workspaceId={workspace.id} />
        <DataExport workspaceId={workspace.id} />
      </div>
    </>
  );
}
