import type { Block, Tone } from '@/lib/cards';
import { plural, formatPercent, type Locale, type Translate } from '@/lib/i18n';
import { Markdown } from '@/components/markdown';
import { formatMoney, formatNumber, formatValue, labelText } from './format';

/**
 * What a card needs to speak its reader's language. No hooks here: the same blocks render inside a
 * client card in a conversation and as plain server HTML on the Home.
 */
export interface Speech {
  locale: Locale;
  t: Translate;
  /** Shows date-times in this zone (the workspace's on the Home); the runtime's own when absent. */
  timeZone?: string;
}

/** Tone styles: colour is never the only signal, every callout has its icon and its words. */
const TONES: Record<Tone, { box: string; icon: string }> = {
  info: { box: 'border-line bg-subtle', icon: 'i' },
  success: { box: 'border-success/40 bg-success-soft', icon: '✓' },
  warning: { box: 'border-accent/40 bg-accent-soft', icon: '!' },
  danger: { box: 'border-danger/40 bg-danger-soft', icon: '!!' },
};

/** The blocks of a stamped card, top to bottom. Images keep their box before they load: no layout shift. */
export function CardBlocks({ blocks, speech }: { blocks: Block[]; speech: Speech }) {
  const { locale, t, timeZone } = speech;
  const l = (label: Parameters<typeof labelText>[0]) => labelText(label, locale);
  return (
    <div className="flex flex-col gap-3">
      {blocks.map((block, i) => {
        switch (block.kind) {
          case 'image':
            return (
              // Agents' images come from anywhere: a plain <img> without referrer, in a fixed frame.
              // eslint-disable-next-line @next/next/no-img-element
              <img key={i} src={block.src} alt={block.alt} referrerPolicy="no-referrer" loading="lazy" className="aspect-[16/9] w-full rounded-xl bg-subtle object-cover" />
            );
          case 'title':
            return (
              <div key={i} className="flex flex-col gap-0.5">
                <h3 className="text-lg leading-snug font-semibold text-balance">{l(block.text)}</h3>
                {block.subtitle && <p className="text-sm text-muted">{l(block.subtitle)}</p>}
              </div>
            );
          case 'price':
            return (
              <p key={i} className="text-2xl font-bold tracking-tight">
                {formatMoney(block.amount, block.currency, locale)}
                {block.note && <span className="ml-1.5 text-sm font-normal text-muted">{l(block.note)}</span>}
              </p>
            );
          case 'rating':
            return <Rating key={i} value={block.value} max={block.max} count={block.count} speech={speech} />;
          case 'rows':
            return (
              <dl key={i} className="grid grid-cols-[minmax(0,2fr)_minmax(0,3fr)] gap-x-3 gap-y-1.5 text-[0.9375rem]">
                {block.rows.map((row, n) => (
                  <div key={n} className="contents">
                    <dt className="text-muted">{l(row.label)}</dt>
                    <dd className="font-medium break-words" suppressHydrationWarning>
                      {formatValue(row.value, locale, t, timeZone)}
                    </dd>
                  </div>
                ))}
              </dl>
            );
          case 'chips':
            return (
              <ul key={i} className="flex flex-wrap gap-1.5" role="list">
                {block.items.map((chip, n) => (
                  <li key={n} className="rounded-full border border-line bg-subtle px-2.5 py-0.5 text-sm">
                    {chip}
                  </li>
                ))}
              </ul>
            );
          case 'callout':
            return (
              <p key={i} className={`flex items-start gap-2 rounded-xl border px-3 py-2 text-[0.9375rem] font-medium ${TONES[block.tone].box}`}>
                <span aria-hidden className="inline-flex size-5 shrink-0 items-center justify-center rounded-full border border-current text-xs font-bold">
                  {TONES[block.tone].icon}
                </span>
                {l(block.text)}
              </p>
            );
          case 'text':
            return (
              <section key={i} className="flex flex-col gap-1">
                {block.heading && <h4 className="text-sm font-semibold text-muted">{l(block.heading)}</h4>}
                <Markdown source={block.markdown} />
              </section>
            );
          case 'quote':
            return (
              <figure key={i} className="rounded-xl border-l-4 border-accent/60 bg-subtle px-3 py-2">
                {block.caption && <figcaption className="text-xs font-semibold text-muted">{l(block.caption)}</figcaption>}
                <blockquote className="mt-1 text-[0.9375rem] text-pretty break-words whitespace-pre-line">{block.text}</blockquote>
              </figure>
            );
          case 'list': {
            const items = block.items.map((item, n) => (
              <li key={n} className="pl-1">
                {item.tone && <span className="sr-only">{item.tone}: </span>}
                <span className={item.tone === 'danger' ? 'font-semibold text-danger' : item.tone === 'success' ? 'font-medium' : ''}>{item.text}</span>
                {item.detail && <span className="block text-sm text-muted">{item.detail}</span>}
              </li>
            ));
            return (
              <section key={i} className="flex flex-col gap-1">
                {block.heading && <h4 className="text-sm font-semibold">{l(block.heading)}</h4>}
                {block.ordered ? <ol className="list-decimal pl-5 text-[0.9375rem]">{items}</ol> : <ul className="list-disc pl-5 text-[0.9375rem]">{items}</ul>}
              </section>
            );
          }
          case 'change':
            return (
              <p key={i} className="flex items-center gap-2 text-[0.9375rem]">
                {block.label && <span className="text-muted">{l(block.label)}</span>}
                <Change speech={speech} value={block.value} good={block.good} text={block.format === 'percent' ? formatPercent(block.value, locale, true) : block.format === 'money' ? formatMoney(block.value, block.currency ?? 'EUR', locale) : formatNumber(block.value, locale)} />
              </p>
            );
          case 'trend':
            return (
              <figure key={i} className="flex flex-col gap-1">
                {block.label && <figcaption className="text-sm text-muted">{l(block.label)}</figcaption>}
                <Sparkline points={block.points} speech={speech} className="h-12 w-full" />
              </figure>
            );
          case 'metrics':
            return (
              <ul key={i} className="grid grid-cols-2 gap-2" role="list">
                {block.items.map((m, n) => (
                  <li key={n} className="flex flex-col gap-0.5 rounded-xl border border-line p-3">
                    <span className="text-sm text-muted">{m.label}</span>
                    <span className="text-lg font-bold">{formatValue(m.value, locale, t, timeZone)}</span>
                    {m.change !== undefined && <Change speech={speech} value={m.change} good="up" text={formatPercent(m.change, locale, true)} />}
                    {m.trend && <Sparkline points={m.trend} speech={speech} className="mt-1 h-8 w-full" />}
                  </li>
                ))}
              </ul>
            );
        }
      })}
    </div>
  );
}

function Rating({ value, max, count, speech: { locale, t } }: { value: number; max: number; count?: number; speech: Speech }) {
  return (
    <p className="flex items-center gap-2 text-[0.9375rem]">
      <span className="rounded-lg bg-accent px-2 py-0.5 font-bold text-on-accent" aria-hidden>
        {formatNumber(value, locale)}
      </span>
      <span className="sr-only">{t('cards.rating', { value: formatNumber(value, locale), max })}</span>
      <span aria-hidden className="text-muted">
        / {max}
      </span>
      {count !== undefined && <span className="text-muted">· {plural(t, locale, 'cards.reviews', count)}</span>}
    </p>
  );
}

/** A change with its arrow and its word: "▲ +2.5% (up)"; green only when the direction is the good one. */
function Change({ value, good, text, speech: { t } }: { value: number; good: 'up' | 'down'; text: string; speech: Speech }) {
  const direction = value > 0 ? 'up' : value < 0 ? 'down' : 'unchanged';
  const tone = direction === 'unchanged' ? 'text-muted' : direction === good ? 'text-success' : 'text-danger';
  return (
    <span className={`inline-flex items-center gap-1 font-semibold ${tone}`}>
      <span aria-hidden>{direction === 'up' ? '▲' : direction === 'down' ? '▼' : '■'}</span>
      {text}
      <span className="sr-only">({t(`cards.${direction}`)})</span>
    </span>
  );
}

/** A small trend line drawn as inline SVG (no chart library), described in words for screen readers. */
export function Sparkline({ points, speech: { locale, t }, className = '' }: { points: number[]; speech: Speech; className?: string }) {
  const min = Math.min(...points);
  const max = Math.max(...points);
  const span = max - min || 1;
  const width = 100;
  const height = 32;
  const xy = points.map((p, i) => [(i / (points.length - 1)) * width, height - 2 - ((p - min) / span) * (height - 4)] as const);
  const line = xy.map(([x, y], i) => `${i ? 'L' : 'M'}${x.toFixed(2)} ${y.toFixed(2)}`).join(' ');
  const rising = points[points.length - 1]! >= points[0]!;
  const f = (n: number) => formatNumber(n, locale);
  return (
    <svg
      viewBox={`0 0 ${width} ${height}`}
      preserveAspectRatio="none"
      role="img"
      aria-label={t('cards.trend', { count: points.length, first: f(points[0]!), last: f(points[points.length - 1]!), min: f(min), max: f(max) })}
      className={`${rising ? 'text-success' : 'text-danger'} ${className}`}
    >
      <path d={`${line} L${width} ${height} L0 ${height} Z`} fill="currentColor" opacity={0.12} />
      <path d={line} fill="none" stroke="currentColor" strokeWidth={1.5} vectorEffect="non-scaling-stroke" strokeLinejoin="round" />
    </svg>
  );
}
