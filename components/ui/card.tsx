import type { ReactNode } from 'react';

/** Cards are the unit of the interface: one topic each, at most one primary button. */
export function Card({ children, tone = 'default', className = '' }: { children: ReactNode; tone?: 'default' | 'danger'; className?: string }) {
  const border = tone === 'danger' ? 'border-danger/50' : 'border-line';
  return <section className={`rounded-2xl border ${border} bg-surface p-5 shadow-card sm:p-6 ${className}`}>{children}</section>;
}

export function CardTitle({ children, id }: { children: ReactNode; id?: string }) {
  return (
    <h2 id={id} className="text-lg font-semibold">
      {children}
    </h2>
  );
}
