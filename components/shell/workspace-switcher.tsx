'use client';

import Link from 'next/link';
import { useRef, useState, type MouseEvent } from 'react';
import { SignOutButton } from '@/components/auth/sign-out-button';
import { CheckIcon, ChevronsUpDownIcon, PlusIcon } from '@/components/ui/icons';
import { displayName, type WorkspaceSummary } from '@/components/workspaces/types';
import { useI18n } from '@/lib/i18n/client';

const MENU_ID = 'workspace-switcher';

/**
 * The current workspace and a popover listing the others. The browser's Popover API does the
 * opening, closing on Escape and on outside taps, and focus return; this code only mirrors the
 * open state for assistive tech and closes the popover after a link is chosen.
 */
export function WorkspaceSwitcher({ current, workspaces, email }: { current: WorkspaceSummary; workspaces: WorkspaceSummary[]; email: string }) {
  const { t } = useI18n();
  const popover = useRef<HTMLDivElement>(null);
  // Not every browser reports a popover invoker as expanded yet; say it explicitly.
  const [open, setOpen] = useState(false);

  function closeAfterLink(event: MouseEvent<HTMLDivElement>) {
    if ((event.target as Element).closest('a')) popover.current?.hidePopover();
  }

  const describe = (workspace: WorkspaceSummary) =>
    workspace.isPersonal ? t('workspace.personalHint') : t(`role.${workspace.role}`);

  return (
    <>
      <button
        type="button"
        popoverTarget={MENU_ID}
        aria-expanded={open}
        className="flex min-h-12 w-full items-center gap-3 rounded-xl px-2 text-left hover:bg-subtle"
      >
        <Monogram name={displayName(current, t)} />
        <span className="flex min-w-0 flex-1 flex-col text-[0.9375rem] leading-tight">
          <span className="sr-only">{t('switcher.open')}: </span>
          <span className="truncate font-semibold">{displayName(current, t)}</span>
          <span className="truncate text-sm text-muted">{describe(current)}</span>
        </span>
        <ChevronsUpDownIcon className="shrink-0 text-muted" />
      </button>

      <div
        ref={popover}
        id={MENU_ID}
        popover="auto"
        aria-label={t('switcher.title')}
        onClick={closeAfterLink}
        onToggle={(event) => setOpen(event.newState === 'open')}
        className="fixed top-[4.25rem] right-3 bottom-auto left-3 m-0 max-h-[calc(100dvh-6rem)] overflow-y-auto rounded-2xl border border-line bg-surface p-2 shadow-card lg:top-[4.5rem] lg:right-auto lg:left-4 lg:w-72"
      >
        <p className="px-3 pt-2 pb-1 text-sm font-semibold text-muted">{t('switcher.title')}</p>
        <ul className="flex flex-col">
          {workspaces.map((workspace) => {
            const isCurrent = workspace.id === current.id;
            return (
              <li key={workspace.id}>
                <Link
                  href={`/w/${workspace.id}`}
                  aria-current={isCurrent ? 'true' : undefined}
                  className="flex min-h-12 items-center gap-3 rounded-xl px-3 hover:bg-subtle"
                >
                  <Monogram name={displayName(workspace, t)} small />
                  <span className="flex min-w-0 flex-1 flex-col leading-tight">
                    <span className="truncate font-medium">{displayName(workspace, t)}</span>
                    <span className="text-sm text-muted">{describe(workspace)}</span>
                  </span>
                  {isCurrent && <CheckIcon className="shrink-0 text-accent-ink" />}
                </Link>
              </li>
            );
          })}
        </ul>
        <div className="my-2 border-t border-line" />
        <Link href="/workspaces/new" className="flex min-h-12 items-center gap-3 rounded-xl px-3 font-semibold text-accent-ink hover:bg-subtle">
          <PlusIcon />
          {t('switcher.create')}
        </Link>
        <div className="my-2 border-t border-line" />
        <p className="truncate px-3 py-1 text-sm text-muted">{t('switcher.signedInAs', { email })}</p>
        <SignOutButton variant="menu" />
      </div>
    </>
  );
}

/** A workspace's initial on a warm tile: recognisable at a glance without a logo upload. */
function Monogram({ name, small = false }: { name: string; small?: boolean }) {
  return (
    <span
      aria-hidden
      className={`flex shrink-0 items-center justify-center rounded-lg bg-accent-soft font-semibold text-accent-ink ${small ? 'size-8 text-sm' : 'size-9 text-lg'}`}
    >
      {name.trim().charAt(0).toUpperCase() || '·'}
    </span>
  );
}
