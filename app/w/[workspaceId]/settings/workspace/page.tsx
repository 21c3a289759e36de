import type { Metadata } from 'next';
import { Card, CardTitle } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { DeleteWorkspace } from '@/components/workspaces/delete-workspace';
import { sectorOptions, timeZoneOptions, WORKSPACE_LOCALES } from '@/components/workspaces/options';
import { displayName, toSummary } from '@/components/workspaces/types';
import { WorkspaceSettingsForm } from '@/components/workspaces/workspace-settings-form';
import { getI18n } from '@/lib/i18n/server';
import { SECTORS } from '@/lib/workspaces';
import { currentWorkspace, type WorkspaceParams } from '../../current';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getI18n()).t('settings.workspace') };
}

export default async function WorkspaceSettingsPage({ params }: { params: WorkspaceParams }) {
  const { workspaceId } = await params;
  const [{ workspace }, { t, locale }] = await Promise.all([currentWorkspace(workspaceId), getI18n()]);
  const sectors = sectorOptions(SECTORS, locale);
  const canEdit = workspace.role !== 'member';

  return (
    <>
      <PageHeader
        title={t('settings.workspace')}
        description={t('settings.workspaceDescription')}
        back={{ href: `/w/${workspace.id}/settings`, label: t('settings.title') }}
      />
      <div className="flex flex-col gap-6">
        <Card>
          <CardTitle>{t('workspaceSettings.details')}</CardTitle>
          <div className="mt-4">
            {canEdit ? (
              <WorkspaceSettingsForm workspace={toSummary(workspace)} timeZones={timeZoneOptions()} sectors={sectors} />
            ) : (
              <>
                <p className="mb-4 text-[0.9375rem] text-muted">{t('workspaceSettings.readOnly')}</p>
                <dl className="grid gap-3 sm:grid-cols-[10rem_1fr]">
                  <dt className="text-sm font-semibold">{t('workspace.fields.name')}</dt>
                  <dd>{displayName(workspace, t)}</dd>
                  <dt className="text-sm font-semibold">{t('workspace.fields.timeZone')}</dt>
                  <dd>{workspace.timeZone.replaceAll('_', ' ')}</dd>
                  <dt className="text-sm font-semibold">{t('workspace.fields.locale')}</dt>
                  <dd>{WORKSPACE_LOCALES.find((option) => option.value === workspace.locale)?.label}</dd>
                  <dt className="text-sm font-semibold">{t('workspace.fields.sector')}</dt>
                  <dd>{sectors.find((option) => option.value === workspace.sector)?.label ?? workspace.sector}</dd>
                </dl>
              </>
            )}
          </div>
        </Card>

        <Card>
          <CardTitle>{t('workspaceSettings.plan')}</CardTitle>
          <p className="mt-2 flex flex-wrap items-center gap-2">
            <span className="rounded-full bg-accent-soft px-3 py-1 text-sm font-semibold text-accent-ink">{t(`plan.${workspace.plan}`)}</span>
            <span className="text-[0.9375rem] text-muted">{t('workspaceSettings.planNote')}</span>
          </p>
        </Card>

        <Card tone={workspace.role === 'owner' && !workspace.isPersonal ? 'danger' : 'default'}>
          <CardTitle>{t('deleteWorkspace.title')}</CardTitle>
          {workspace.isPersonal ? (
            <p className="mt-2 text-[0.9375rem] text-pretty text-muted">{t('deleteWorkspace.personal')}</p>
          ) : workspace.role === 'owner' ? (
            <>
              <p className="mt-2 mb-4 text-[0.9375rem] text-pretty text-muted">{t('deleteWorkspace.lead')}</p>
              <DeleteWorkspace workspaceId={workspace.id} name={workspace.name} />
            </>
          ) : (
            <p className="mt-2 text-[0.9375rem] text-pretty text-muted">{t('deleteWorkspace.ownerOnly')}</p>
          )}
        </Card>
      </div>
    </>
  );
}
