import type { Metadata } from 'next';
import { PlanEditor } from '@/components/pipeline/setup/plan-editor';
import { QuotaEditor } from '@/components/pipeline/setup/quota-editor';
import { TerritoryEditor } from '@/components/pipeline/setup/territory-editor';
import { Alert } from '@/components/ui/alert';
import { PageHeader } from '@/components/ui/page-header';
import { serialize } from '@/lib/api';
import { getI18n } from '@/lib/i18n/server';
import { commissionPlans, isManager, territoriesView } from '@/lib/sales';
import { currentWorkspace, type WorkspaceParams } from '../../current';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getI18n()).t('sales.setup.title') };
}

/** Sales → Pipeline → Quotas, territories and commissions: the owner's and admins' editors; a member has nothing to edit here. */
export default async function SalesSetupPage({ params }: { params: WorkspaceParams }) {
  const { workspaceId } = await params;
  const [{ user, workspace }, { t }] = await Promise.all([currentWorkspace(workspaceId), getI18n()]);
  const header = <PageHeader title={t('sales.setup.title')} description={t('sales.setup.lead')} back={{ href: `/w/${workspace.id}/pipeline`, label: t('sales.setup.back') }} />;
  if (!isManager(workspace.role)) {
    return (
      <>
        {header}
        <Alert>{t('sales.setup.managersOnly')}</Alert>
      </>
    );
  }
  const [plans, territories] = await Promise.all([commissionPlans(user, workspace.id), territoriesView(user, workspace.id)]);
  return (
    <>
      {header}
      <div className="flex flex-col gap-6">
        <QuotaEditor workspaceId={workspace.id} people={plans.people} />
        <TerritoryEditor workspaceId={workspace.id} view={serialize(territories)} people={plans.people} />
        <PlanEditor workspaceId={workspace.id} data={serialize(plans)} />
      </div>
    </>
  );
}
