'use client';

import type { DiffLine } from '@/lib/artifacts';
import { plural } from '@/lib/i18n';
import { useI18n } from '@/lib/i18n/client';
import type { DiffResult } from './types';

/** Unchanged stretches longer than this fold to a line saying how many. */
const CONTEXT = 3;

type Row = { kind: 'line'; line: DiffLine } | { kind: 'fold'; count: number };

function fold(lines: DiffLine[]): Row[] {
  const rows: Row[] = [];
  let i = 0;
  while (i < lines.length) {
    if (lines[i]!.op !== 'same') {
      rows.push({ kind: 'line', line: lines[i++]! });
      continue;
    }
    let end = i;
    while (end < lines.length && lines[end]!.op === 'same') end++;
    const keepHead = i === 0 ? 0 : CONTEXT;
    const keepTail = end === lines.length ? 0 : CONTEXT;
    if (end - i > keepHead + keepTail + 1) {
      for (let k = i; k < i + keepHead; k++) rows.push({ kind: 'line', line: lines[k]! });
      rows.push({ kind: 'fold', count: end - i - keepHead - keepTail });
      for (let k = end - keepTail; k < end; k++) rows.push({ kind: 'line', line: lines[k]! });
    } else for (let k = i; k < end; k++) rows.push({ kind: 'line', line: lines[k]! });
    i = end;
  }
  return rows;
}

/** A line diff: removed lines marked "−" and added "+" (sign, colour and a word for screen readers). */
export function DiffView({ diff }: { diff: DiffResult }) {
  const { t, locale } = useI18n();
  if (diff.added === 0 && diff.removed === 0) return <p className="text-[0.9375rem] text-muted">{t('artifacts.noDifferences')}</p>;
  return (
    <div className="flex flex-col gap-2">
      <p className="text-sm font-semibold">{t('artifacts.diffSummary', { added: diff.added, removed: diff.removed })}</p>
      <div className="overflow-x-auto rounded-xl border border-line bg-surface font-mono text-[0.8125rem]" role="table" aria-label={t('artifacts.tab.compare')}>
        {fold(diff.lines).map((row, n) =>
          row.kind === 'fold' ? (
            <div key={n} role="row" className="bg-subtle px-3 py-1 text-muted">
              <span role="cell">{plural(t, locale, 'artifacts.unchangedLines', row.count)}</span>
            </div>
          ) : (
            <div
              key={n}
              role="row"
              data-op={row.line.op}
              className={`grid grid-cols-[2.5rem_2.5rem_1.25rem_minmax(0,1fr)] ${row.line.op === 'add' ? 'bg-success-soft' : row.line.op === 'del' ? 'bg-danger-soft' : ''}`}
            >
              <span role="cell" className="px-1 text-right text-muted select-none">
                {row.line.a ?? ''}
              </span>
              <span role="cell" className="px-1 text-right text-muted select-none">
                {row.line.b ?? ''}
              </span>
              <span role="cell" className="text-center font-bold select-none">
                <span aria-hidden>{row.line.op === 'add' ? '+' : row.line.op === 'del' ? '−' : ''}</span>
                {row.line.op !== 'same' && <span className="sr-only">{t(row.line.op === 'add' ? 'artifacts.added' : 'artifacts.removed')}</span>}
              </span>
              <span role="cell" className="pr-3 whitespace-pre-wrap break-words">
                {row.line.text || ' '}
              </span>
            </div>
          ),
        )}
      </div>
    </div>
  );
}
