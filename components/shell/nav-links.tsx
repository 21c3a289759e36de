'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import type { ComponentType } from 'react';
import { CalendarIcon, ChatIcon, HomeIcon, MoreIcon, PipelineIcon, PlanetIcon, SettingsIcon, UsersIcon } from '@/components/ui/icons';
import { useI18n } from '@/lib/i18n/client';
import type { MessageKey } from '@/lib/i18n';

interface Item {
  path: string;
  key: MessageKey;
  Icon: ComponentType<{ size?: number }>;
  /** On a phone's bar, behind "More": five tabs is what fits 390 px with their labels, in Italian too. */
  more?: boolean;
}

const ITEMS: Item[] = [
  { path: '', key: 'nav.home', Icon: HomeIcon },
  { path: '/bookings', key: 'navDaily.bookings', Icon: CalendarIcon },
  { path: '/customers', key: 'navDaily.customers', Icon: UsersIcon },
  { path: '/pipeline', key: 'navDaily.pipeline', Icon: PipelineIcon, more: true },
  { path: '/chat', key: 'nav.chat', Icon: ChatIcon },
  { path: '/planets', key: 'nav.planets', Icon: PlanetIcon, more: true },
  { path: '/settings', key: 'nav.settings', Icon: SettingsIcon, more: true },
];

const current = (exact: boolean, within: boolean) => (exact ? 'page' : within ? 'true' : undefined);
const row = (active: boolean) =>
  `flex min-h-11 items-center gap-3 rounded-xl px-3 text-[0.9375rem] font-semibold ${active ? 'bg-accent-soft text-accent-ink' : 'text-ink hover:bg-subtle'}`;
const tab = (active: boolean) =>
  `flex min-h-16 w-full flex-col items-center justify-center gap-1 text-xs font-semibold ${active ? 'text-accent-ink' : 'text-muted hover:text-ink'}`;
const pill = (active: boolean) => `flex h-8 w-14 items-center justify-center rounded-full ${active ? 'bg-accent-soft' : ''}`;

/**
 * The destinations, as a column in the sidebar or as the bottom bar on phones (with the less daily ones
 * under "More", a native popover: it closes on a tap outside or Escape without script of ours). The
 * only client code of the shell: it needs the current path to mark where you are.
 */
export function NavLinks({ workspaceId, variant }: { workspaceId: string; variant: 'sidebar' | 'bar' }) {
  const { t } = useI18n();
  const pathname = usePathname();
  const base = `/w/${workspaceId}`;
  const where = (path: string) => {
    const href = base + path;
    // Home is only "current" on itself; a section stays current on its sub-pages.
    return { href, exact: pathname === href, within: path !== '' && pathname.startsWith(`${href}/`) };
  };

  if (variant === 'sidebar') return <RowLinks items={ITEMS} where={where} t={t} />;

  const more = ITEMS.filter((item) => item.more);
  const moreActive = more.some(({ path }) => {
    const { exact, within } = where(path);
    return exact || within;
  });

  return (
    <ul className="grid grid-cols-5">
      {ITEMS.filter((item) => !item.more).map(({ path, key, Icon }) => {
        const { href, exact, within } = where(path);
        return (
          <li key={path}>
            <Link href={href} prefetch={false} aria-current={current(exact, within)} className={tab(exact || within)}>
              <span className={pill(exact || within)}>
                <Icon size={22} />
              </span>
              {t(key)}
            </Link>
          </li>
        );
      })}
      <li>
        <button type="button" popoverTarget="nav-more" className={tab(moreActive)}>
          <span className={pill(moreActive)}>
            <MoreIcon size={22} />
          </span>
          {t('navDaily.more')}
        </button>
        {/* Keyed by the path: a link followed inside it leaves the popover closed on the next page. */}
        <div
          key={pathname}
          id="nav-more"
          popover="auto"
          className="fixed inset-auto right-2 bottom-[calc(4.5rem+env(safe-area-inset-bottom))] m-0 min-w-48 rounded-2xl border border-line bg-surface p-2 shadow-lg"
        >
          <RowLinks items={more} where={where} t={t} />
        </div>
      </li>
    </ul>
  );
}

/** Links as rows with their icon: the sidebar, and the phone's "More" popover. */
function RowLinks({ items, where, t }: { items: Item[]; where: (path: string) => { href: string; exact: boolean; within: boolean }; t: (key: MessageKey) => string }) {
  return (
    <ul className="flex flex-col gap-1">
      {items.map(({ path, key, Icon }) => {
        const { href, exact, within } = where(path);
        return (
          <li key={path}>
            <Link href={href} prefetch={false} aria-current={current(exact, within)} className={row(exact || within)}>
              <Icon />
              {t(key)}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
