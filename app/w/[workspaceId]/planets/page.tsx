import type { Metadata } from 'next';
import { PageHeader } from '@/components/ui/page-header';
import { getI18n } from '@/lib/i18n/server';
import { currentWorkspace, type WorkspaceParams } from '../current';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getI18n()).t('nav.planets') };
}

const PLANETS = ['web', 'booking', 'content', 'crm', 'sales', 'marketing'] as const;

/**
 * The six planets before there is any data: the same layout the real page will have, drawn as
 * outlines and labelled "waiting for data", so the page teaches what it will become.
 */
export default async function PlanetsPage({ params }: { params: WorkspaceParams }) {
  const [, { t }] = await Promise.all([currentWorkspace((await params).workspaceId), getI18n()]);
  return (
    <>
      <PageHeader title={t('nav.planets')} description={t('planets.lead')} />
      <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3">
        {PLANETS.map((planet) => (
          <li key={planet} className="flex flex-col items-center gap-3 rounded-2xl border border-line bg-surface px-3 py-6 text-center shadow-card">
            <span aria-hidden className="relative flex size-16 items-center justify-center">
              <span className="absolute inset-0 rounded-full border-2 border-dashed border-line-strong/60" />
              <span className="size-10 rounded-full bg-subtle" />
            </span>
            <span className="flex flex-col">
              <span className="font-semibold">{t(`planets.${planet}`)}</span>
              <span className="text-sm text-muted">{t('planets.waiting')}</span>
            </span>
          </li>
        ))}
      </ul>
      <p className="mt-6 text-[0.9375rem] text-pretty text-muted">{t('planets.footnote')}</p>
    </>
  );
}
