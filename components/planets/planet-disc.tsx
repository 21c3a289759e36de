import type { Health, Trend } from '@/components/home/types';
import { HEALTH_STYLE, HealthGlyph } from './health';

const RING: Record<Trend, { className: string; dash?: string }> = {
  up: { className: 'stroke-success' },
  steady: { className: 'stroke-line-strong' },
  down: { className: 'stroke-danger', dash: '7 5' },
  unknown: { className: 'stroke-line-strong/50', dash: '1.5 5' },
};

/**
 * One planet as a small visual: the disc's colour (and glyph) is its health, the ring its trend —
 * solid green rising, solid neutral steady, dashed red falling, dotted without a comparison — and a
 * small moon circles it slowly. The moon moves an HTML layer (composited, no repaint), and stops
 * under prefers-reduced-motion (globals.css). Decorative: the link around it carries the words.
 */
export function PlanetDisc({ health, trend, hasData, size = 72 }: { health: Health; trend: Trend; hasData: boolean; size?: number }) {
  const ring = hasData ? RING[trend] : RING.unknown;
  return (
    <span aria-hidden className="relative block shrink-0" style={{ width: size, height: size }}>
      <svg width={size} height={size} viewBox="0 0 72 72" className="block">
        <circle cx="36" cy="36" r="32" fill="none" strokeWidth="3" strokeLinecap="round" className={ring.className} strokeDasharray={ring.dash} />
        {hasData ? (
          <circle cx="36" cy="36" r="23" className={HEALTH_STYLE[health].disc} />
        ) : (
          <circle cx="36" cy="36" r="23" className="fill-subtle stroke-line-strong/60" strokeDasharray="3 4" strokeWidth="1.5" />
        )}
      </svg>
      {hasData && (
        <span className={`absolute inset-0 flex items-center justify-center ${HEALTH_STYLE[health].ink}`}>
          <HealthGlyph health={health} size={Math.round(size / 3)} />
        </span>
      )}
      <span className="absolute inset-0 animate-[spin_48s_linear_infinite]">
        <span className="absolute top-[1px] left-1/2 size-2 -translate-x-1/2 rounded-full bg-accent/80" />
      </span>
    </span>
  );
}
