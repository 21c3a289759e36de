/** Quiet line drawings for empty states, in the accent colour. */

export function OrbitArt() {
  return (
    <svg width="120" height="96" viewBox="0 0 120 96" fill="none" aria-hidden>
      <ellipse cx="60" cy="48" rx="54" ry="20" stroke="currentColor" strokeOpacity="0.35" strokeWidth="1.5" strokeDasharray="3 5" />
      <ellipse cx="60" cy="48" rx="34" ry="12" stroke="currentColor" strokeOpacity="0.5" strokeWidth="1.5" />
      <circle cx="60" cy="48" r="14" fill="currentColor" fillOpacity="0.9" />
      <circle cx="108" cy="40" r="5" fill="currentColor" fillOpacity="0.55" />
      <circle cx="27" cy="56" r="3.5" fill="currentColor" fillOpacity="0.4" />
    </svg>
  );
}

export function BubblesArt() {
  return (
    <svg width="120" height="96" viewBox="0 0 120 96" fill="none" aria-hidden>
      <rect x="14" y="18" width="62" height="34" rx="14" stroke="currentColor" strokeWidth="1.5" strokeOpacity="0.5" />
      <path d="M30 52 24 62l16-10" stroke="currentColor" strokeWidth="1.5" strokeOpacity="0.5" strokeLinejoin="round" />
      <rect x="46" y="44" width="60" height="30" rx="13" fill="currentColor" fillOpacity="0.9" />
      <circle cx="64" cy="59" r="2.5" fill="var(--surface)" />
      <circle cx="76" cy="59" r="2.5" fill="var(--surface)" />
      <circle cx="88" cy="59" r="2.5" fill="var(--surface)" />
    </svg>
  );
}
