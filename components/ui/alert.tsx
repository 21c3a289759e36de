import type { ReactNode } from 'react';

type Tone = 'error' | 'success' | 'info';

const tones: Record<Tone, string> = {
  error: 'border-danger/40 bg-danger-soft text-ink',
  success: 'border-success/40 bg-success-soft text-ink',
  info: 'border-line bg-subtle text-ink',
};

/**
 * A message inside the page. Errors use role="alert" so they are announced the moment they appear;
 * the others are polite status updates.
 */
export function Alert({ tone = 'info', children, className = '' }: { tone?: Tone; children: ReactNode; className?: string }) {
  return (
    <div role={tone === 'error' ? 'alert' : 'status'} className={`rounded-xl border px-4 py-3 text-[0.9375rem] ${tones[tone]} ${className}`}>
      {children}
    </div>
  );
}
