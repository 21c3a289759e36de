import type { Translate } from '@/lib/i18n';
import type { Health } from '@/components/home/types';

/**
 * Health is never colour alone: each level has its icon and its word. The colour pairs pass WCAG AA
 * in both themes (watch is amber, which the shared palette does not have: its pairs are set here,
 * #7a4d00 on #fdf0d5 is 6.0:1, #f2c66d on #3a2c12 is 8.3:1).
 */
export const HEALTH_STYLE: Record<Health, { badge: string; disc: string; ink: string }> = {
  good: { badge: 'bg-success-soft text-success', disc: 'fill-success-soft', ink: 'text-success' },
  watch: {
    badge: 'bg-[#fdf0d5] text-[#7a4d00] dark:bg-[#3a2c12] dark:text-[#f2c66d]',
    disc: 'fill-[#fdf0d5] dark:fill-[#3a2c12]',
    ink: 'text-[#7a4d00] dark:text-[#f2c66d]',
  },
  act: { badge: 'bg-danger-soft text-danger', disc: 'fill-danger-soft', ink: 'text-danger' },
};

/** 24×24 glyphs drawn in currentColor: a check, an eye, an exclamation in a triangle. */
export function HealthGlyph({ health, size = 16 }: { health: Health; size?: number }) {
  return (
    <svg aria-hidden width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2.2} strokeLinecap="round" strokeLinejoin="round">
      {health === 'good' && <path d="m5 12.5 4.5 4.5L19 7.5" />}
      {health === 'watch' && (
        <>
          <path d="M2.5 12s3.5-6.5 9.5-6.5 9.5 6.5 9.5 6.5-3.5 6.5-9.5 6.5S2.5 12 2.5 12Z" />
          <circle cx="12" cy="12" r="2.5" />
        </>
      )}
      {health === 'act' && (
        <>
          <path d="M12 3.5 2.5 20h19L12 3.5Z" />
          <path d="M12 10v4.5M12 17.5v.01" />
        </>
      )}
    </svg>
  );
}

export function HealthBadge({ health, t }: { health: Health; t: Translate }) {
  return (
    <span className={`inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-semibold ${HEALTH_STYLE[health].badge}`}>
      <HealthGlyph health={health} size={14} />
      {t(`health.${health}`)}
    </span>
  );
}
