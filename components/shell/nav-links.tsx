'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { ChatIcon, HomeIcon, PlanetIcon, SettingsIcon } from '@/components/ui/icons';
import { useI18n } from '@/lib/i18n/client';

const ITEMS = [
  { path: '', key: 'nav.home', Icon: HomeIcon },
  { path: '/chat', key: 'nav.chat', Icon: ChatIcon },
  { path: '/planets', key: 'nav.planets', Icon: PlanetIcon },
  { path: '/settings', key: 'nav.settings', Icon: SettingsIcon },
] as const;

/**
 * The four destinations, as a column in the sidebar or as the bottom bar on phones. The only client
 * code of the shell: it needs the current path to mark where you are.
 */
export function NavLinks({ workspaceId, variant }: { workspaceId: string; variant: 'sidebar' | 'bar' }) {
  const { t } = useI18n();
  const pathname = usePathname();
  const base = `/w/${workspaceId}`;

  return (
    <ul className={variant === 'bar' ? 'grid grid-cols-4' : 'flex flex-col gap-1'}>
      {ITEMS.map(({ path, key, Icon }) => {
        const href = base + path;
        const exact = pathname === href;
        // Home is only "current" on itself; a section stays current on its sub-pages.
        const within = path !== '' && pathname.startsWith(`${href}/`);
        const active = exact || within;
        return (
          <li key={path}>
            <Link
              href={href}
              prefetch={false}
              aria-current={exact ? 'page' : within ? 'true' : undefined}
              className={
                variant === 'bar'
                  ? `flex min-h-16 flex-col items-center justify-center gap-1 text-xs font-semibold ${active ? 'text-accent-ink' : 'text-muted hover:text-ink'}`
                  : `flex min-h-11 items-center gap-3 rounded-xl px-3 text-[0.9375rem] font-semibold ${
                      active ? 'bg-accent-soft text-accent-ink' : 'text-ink hover:bg-subtle'
                    }`
              }
            >
              {variant === 'bar' ? (
                <span className={`flex h-8 w-14 items-center justify-center rounded-full ${active ? 'bg-accent-soft' : ''}`}>
                  <Icon size={22} />
                </span>
              ) : (
                <Icon />
              )}
              {t(key)}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
