import type { Metadata } from 'next';
import { BookingsScreen } from '@/components/bookings/bookings-screen';
import { PageHeader } from '@/components/ui/page-header';
import { serialize } from '@/lib/api';
import { bookingDay, bookingWeek, dayQuerySchema } from '@/lib/bookings';
import { getI18n } from '@/lib/i18n/server';
import { currentWorkspace, type WorkspaceParams } from '../current';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getI18n()).t('bookings.title') };
}

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/**
 * Bookings, phone first: a day's agenda per staff member (`?date=`, default today in the workspace's
 * zone) or the week (`&view=week`). Every member may book, move, cancel and mark done (a front desk
 * person is a member); a date that is not one opens today.
 */
export default async function BookingsPage({ params, searchParams }: { params: WorkspaceParams; searchParams: SearchParams }) {
  const [{ workspaceId }, search] = await Promise.all([params, searchParams]);
  const [{ user, workspace }, { t }] = await Promise.all([currentWorkspace(workspaceId), getI18n()]);
  const parsed = dayQuerySchema.safeParse({ date: typeof search.date === 'string' ? search.date : undefined });
  const query = parsed.success ? parsed.data : {};
  const now = new Date();

  return (
    <>
      <PageHeader title={t('bookings.title')} description={t('bookings.lead')} />
      {search.view === 'week' ? (
        <BookingsScreen workspaceId={workspace.id} now={now.toISOString()} view="week" week={serialize(await bookingWeek(user, workspace.id, query, now))} />
      ) : (
        <BookingsScreen workspaceId={workspace.id} now={now.toISOString()} view="day" day={serialize(await bookingDay(user, workspace.id, query, now))} />
      )}
    </>
  );
}
