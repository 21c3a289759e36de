import Link from 'next/link';
import type { ReactNode } from 'react';
import { ChevronRightIcon } from '@/components/ui/icons';

/** One row of the Settings index: icon, name, a line saying what is inside. */
export function SettingsLink({ href, icon, title, description }: { href: string; icon: ReactNode; title: string; description: string }) {
  return (
    <Link href={href} className="flex min-h-16 items-center gap-4 px-4 py-3 hover:bg-subtle sm:px-5">
      <span aria-hidden className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-accent-soft text-accent-ink">
        {icon}
      </span>
      <span className="flex min-w-0 flex-1 flex-col">
        <span className="font-semibold">{title}</span>
        <span className="text-sm text-pretty text-muted">{description}</span>
      </span>
      <ChevronRightIcon className="shrink-0 text-muted" />
    </Link>
  );
}
