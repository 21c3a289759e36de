import type { SVGProps } from 'react';

/** A clock with a return arrow: something that comes back on a schedule. Drawn like components/ui/icons. */
export function RoutineIcon({ size = 20, ...props }: SVGProps<SVGSVGElement> & { size?: number }) {
  return (
    <svg aria-hidden width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round" strokeLinejoin="round" {...props}>
      <path d="M20.5 13A8.5 8.5 0 1 1 18 6.5" />
      <path d="M20.5 3.5v4h-4" />
      <path d="M12 8v4.5l3 1.5" />
    </svg>
  );
}
