import type { Metadata } from 'next';
import Link from 'next/link';
import { AutonomyView } from '@/components/autonomy/autonomy-view';
import { OutboxCard } from '@/components/autonomy/outbox-card';
import { decisionState, describeDecision } from '@/components/home/format';
import { formatMoment } from '@/lib/i18n';
import { buttonClass } from '@/components/ui/button';
import { Card, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { OrbitArt } from '@/components/ui/art';
import { PageHeader } from '@/components/ui/page-header';
import { serialize } from '@/lib/api';
import { getAutonomy, listDecisions, listOutbox } from '@/lib/autonomy';
import { getI18n } from '@/lib/i18n/server';
import { currentWorkspace, type WorkspaceParams } from '../../current';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getI18n()).t('settings.autonomy') };
}

/** Settings → Autonomy: owner and admins only; members are told who can change it. */
export default async function AutonomyPage({ params }: { params: WorkspaceParams }) {
  const { workspaceId } = await params;
  const [{ user, workspace }, { t, locale }] = await Promise.all([currentWorkspace(workspaceId), getI18n()]);
  const back = { href: `/w/${workspace.id}/settings`, label: t('settings.title') };

  if (workspace.role === 'member') {
    return (
      <>
        <PageHeader title={t('settings.autonomy')} back={back} />
        <EmptyState
          art={<OrbitArt />}
          title={t('autonomy.forbiddenTitle')}
          body={t('autonomy.forbiddenBody')}
          action={
            <Link href={`/w/${workspace.id}`} className={buttonClass('secondary')}>
              {t('nav.home')}
            </Link>
          }
        />
      </>
    );
  }

  const [settings, history, outbox] = await Promise.all([
    getAutonomy(user, workspace.id),
    listDecisions(user, workspace.id, { tier: 'auto', limit: 30 }),
    listOutbox(user, workspace.id, { limit: 20 }),
  ]);
  const decisions = serialize(history);
  const messages = serialize(outbox);
  const tz = workspace.timeZone;

  return (
    <>
      <PageHeader title={t('settings.autonomy')} description={t('autonomy.lead')} back={back} />
      <div className="flex flex-col gap-6">
        <AutonomyView workspaceId={workspace.id} initial={serialize(settings)} />

        <Card>
          <CardTitle>{t('autonomy.historyTitle')}</CardTitle>
          {decisions.length === 0 ? (
            <p className="mt-2 text-[0.9375rem] text-muted">{t('autonomy.historyEmpty')}</p>
          ) : (
            <ul className="mt-3 divide-y divide-line">
              {decisions.map((d) => (
                <li key={d.id} className="flex flex-col py-2">
                  <span className="text-[0.9375rem] text-pretty">{describeDecision(d, locale, tz, t).what}</span>
                  <span className="text-xs text-muted">
                    {decisionState(d, locale, tz, t)} · {formatMoment(d.executedAt ?? d.createdAt, locale, tz)}
                    {d.error ? ` · ${d.error}` : ''}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </Card>

        <OutboxCard workspaceId={workspace.id} messages={messages} title={t('autonomy.outboxTitle')} lead={t('autonomy.outboxLead')} locale={locale} timeZone={tz} t={t} />
      </div>
    </>
  );
}
