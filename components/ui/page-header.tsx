import Link from 'next/link';
import type { ReactNode } from 'react';
import { ChevronLeftIcon } from './icons';

/** The title of a screen, with an optional way back for nested screens on phones. */
export function PageHeader({ title, description, back }: { title: string; description?: ReactNode; back?: { href: string; label: string } }) {
  return (
    <header className="mb-6 flex flex-col gap-1">
      {back && (
        <Link href={back.href} className="-ml-2 mb-1 inline-flex min-h-11 w-fit items-center gap-1 rounded-lg px-2 text-sm font-semibold text-accent-ink hover:bg-subtle">
          <ChevronLeftIcon />
          {back.label}
        </Link>
      )}
      <h1 className="text-2xl font-bold tracking-tight text-balance sm:text-3xl">{title}</h1>
      {description && <p className="text-[0.9375rem] text-pretty text-muted">{description}</p>}
    </header>
  );
}
