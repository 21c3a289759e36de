/** The Multiverbe mark: a small planet with its orbit, in the accent colour. */
export function LogoMark({ size = 28 }: { size?: number }) {
  return (
    <svg aria-hidden width={size} height={size} viewBox="0 0 32 32" fill="none">
      <circle cx="16" cy="16" r="8" fill="var(--accent)" />
      <ellipse cx="16" cy="16" rx="14" ry="5.5" transform="rotate(-24 16 16)" stroke="var(--accent)" strokeWidth="2" opacity="0.55" />
      <circle cx="26.5" cy="10.5" r="2" fill="var(--accent)" />
    </svg>
  );
}

export function Logo() {
  return (
    <span className="inline-flex items-center gap-2 text-lg font-bold tracking-tight">
      <LogoMark />
      Multiverbe
    </span>
  );
}
