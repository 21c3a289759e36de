/**
 * What the Home looks like while the brief loads: the same blocks at the same heights (pulse line, two
 * cards, the done list, six planets), so nothing jumps when the content arrives.
 */
export function HomeSkeleton({ label }: { label: string }) {
  const bar = 'rounded-lg bg-subtle animate-pulse';
  return (
    <div role="status" aria-label={label} className="flex flex-col gap-6">
      <span className="sr-only">{label}</span>
      <div className={`h-12 rounded-2xl ${bar}`} />
      <div className="flex flex-col gap-3">
        <div className={`h-6 w-40 ${bar}`} />
        {[0, 1].map((i) => (
          <div key={i} className="flex flex-col gap-2 rounded-2xl border border-line bg-surface p-4 shadow-card">
            <div className={`h-5 w-3/4 ${bar}`} />
            <div className={`h-4 w-1/2 ${bar}`} />
            <div className={`h-16 ${bar}`} />
            <div className="flex gap-2">
              <div className={`h-11 w-28 rounded-xl ${bar}`} />
              <div className={`h-11 w-24 rounded-xl ${bar}`} />
            </div>
          </div>
        ))}
      </div>
      <div className="flex flex-col gap-3">
        <div className={`h-6 w-36 ${bar}`} />
        <div className={`h-28 rounded-2xl ${bar}`} />
      </div>
      <div className="grid grid-cols-3 gap-3 sm:grid-cols-6">
        {[0, 1, 2, 3, 4, 5].map((i) => (
          <div key={i} className="flex flex-col items-center gap-2 py-2">
            <div className="size-[72px] animate-pulse rounded-full bg-subtle" />
            <div className={`h-4 w-16 ${bar}`} />
          </div>
        ))}
      </div>
    </div>
  );
}
