import type { ReactNode } from 'react';

/** An empty state teaches: what will appear here, and what (if anything) to do meanwhile. */
export function EmptyState({
  art,
  title,
  body,
  action,
  heading: Heading = 'h2',
}: {
  art: ReactNode;
  title: string;
  body: string;
  action?: ReactNode;
  /** h1 when the empty state is the whole page. */
  heading?: 'h1' | 'h2';
}) {
  return (
    <div className="flex flex-col items-center gap-3 rounded-2xl border border-dashed border-line-strong/50 px-6 py-10 text-center">
      <div aria-hidden className="text-accent">
        {art}
      </div>
      <Heading className="text-lg font-semibold text-balance">{title}</Heading>
      <p className="max-w-prose text-[0.9375rem] text-pretty text-muted">{body}</p>
      {action && <div className="mt-2">{action}</div>}
    </div>
  );
}
