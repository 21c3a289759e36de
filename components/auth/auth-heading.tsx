import type { ReactNode } from 'react';

export function AuthHeading({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="mb-6 flex flex-col gap-2">
      <h1 className="text-2xl font-bold tracking-tight text-balance">{title}</h1>
      {children && <p className="text-[0.9375rem] text-pretty text-muted">{children}</p>}
    </div>
  );
}
