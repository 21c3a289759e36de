import { z } from 'zod';
import { isSafeImageUrl } from '@/lib/text';

/**
 * The card layout language, in two stages.
 *
 * A *template* (stored in the library) says where each piece of a result's data goes: paths into the
 * data (`"pricePerNight"`, `"metric.value"`) and `{{path}}` placeholders in text. *Stamping* resolves
 * a template against one result's data into *blocks* that hold only final values. The blocks are what
 * a message keeps, so a sent card never depends on the template again. Both stages are plain JSON,
 * validated with the schemas below, and this module has no server dependencies: the renderer and
 * the Home use the same types.
 */

// Shared pieces ----------------------------------------------------------------------------------------

/** A label in both interface languages, or one string (an agent's own words, or data). */
export const labelSchema = z.union([z.string().max(300), z.object({ en: z.string().max(300), it: z.string().max(300) })]);
export type Label = z.infer<typeof labelSchema>;

export const TONES = ['info', 'success', 'warning', 'danger'] as const;
export const toneSchema = z.enum(TONES);
export type Tone = z.infer<typeof toneSchema>;

const path = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/, 'api.cards.templatePath');
const FORMATS = ['text', 'date', 'datetime', 'number', 'money', 'percent', 'duration', 'bool'] as const;

// Templates --------------------------------------------------------------------------------------------

const toneSpec = z.union([toneSchema, z.object({ from: path, map: z.record(z.string(), toneSchema) })]);
const valueMap = z.record(z.string(), labelSchema);
const templateRow = z.union([
  z.object({ label: labelSchema, value: path, format: z.enum(FORMATS).default('text'), currency: path.optional(), map: valueMap.optional() }),
  z.object({ label: labelSchema, text: z.string().max(300) }),
]);

const templateBlocks = [
  z.object({ kind: z.literal('image'), src: path, alt: z.string().max(300).optional() }),
  z.object({ kind: z.literal('title'), text: z.string().max(300), subtitle: labelSchema.optional() }),
  z.object({ kind: z.literal('price'), amount: path, currency: path.optional(), note: labelSchema.optional() }),
  z.object({ kind: z.literal('rating'), value: path, max: z.number().positive().max(100), count: path.optional() }),
  z.object({ kind: z.literal('rows'), rows: z.array(templateRow).max(24) }),
  z.object({ kind: z.literal('chips'), items: path }),
  z.object({ kind: z.literal('callout'), tone: toneSpec, text: labelSchema.optional(), value: path.optional(), map: valueMap.optional() }),
  z.object({ kind: z.literal('text'), heading: labelSchema.optional(), value: path }),
  /** Words kept exactly as written (the message an agent will send), under a caption saying where they go. */
  z.object({ kind: z.literal('quote'), caption: labelSchema.optional(), value: path }),
  z.object({
    kind: z.literal('list'),
    heading: labelSchema.optional(),
    items: path,
    ordered: z.boolean().default(false),
    item: z.object({ text: z.string().max(300), detail: z.string().max(300).optional(), tone: path.optional() }).optional(),
  }),
  z.object({
    kind: z.literal('change'),
    label: labelSchema.optional(),
    value: path,
    format: z.enum(['percent', 'number', 'money']).default('percent'),
    currency: path.optional(),
    good: z.enum(['up', 'down']).default('up'),
  }),
  z.object({ kind: z.literal('trend'), label: labelSchema.optional(), points: path }),
  z.object({ kind: z.literal('metrics'), items: path }),
] as const;

const plainTemplateBlock = z.discriminatedUnion('kind', [...templateBlocks]);
/** `each` repeats its blocks for every element of an array (one level: no `each` inside `each`). */
const templateBlock = z.discriminatedUnion('kind', [
  ...templateBlocks,
  z.object({ kind: z.literal('each'), items: path, blocks: z.array(plainTemplateBlock).max(12) }),
]);
export const templateSchema = z.array(templateBlock).min(1).max(30);
export type TemplateBlock = z.infer<typeof templateBlock>;
export type Template = z.infer<typeof templateSchema>;

// Stamped blocks ---------------------------------------------------------------------------------------

/** A value kept with its kind, so each viewer formats it in their own language and time zone. */
export const stampedValueSchema = z.discriminatedUnion('t', [
  z.object({ t: z.literal('text'), v: z.string().max(2000) }),
  z.object({ t: z.literal('label'), v: labelSchema }),
  z.object({ t: z.literal('date'), v: z.string().max(40) }),
  z.object({ t: z.literal('datetime'), v: z.string().max(40) }),
  z.object({ t: z.literal('number'), v: z.number() }),
  z.object({ t: z.literal('money'), v: z.number(), currency: z.string().regex(/^[A-Z]{3}$/) }),
  z.object({ t: z.literal('percent'), v: z.number() }),
  z.object({ t: z.literal('duration'), v: z.number() }),
  z.object({ t: z.literal('bool'), v: z.boolean() }),
]);
export type StampedValue = z.infer<typeof stampedValueSchema>;

const url = z.string().max(2_000_000).refine(isSafeImageUrl, 'api.cards.imageUrl');

export const blockSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('image'), src: url, alt: z.string().max(300) }),
  z.object({ kind: z.literal('title'), text: labelSchema, subtitle: labelSchema.optional() }),
  z.object({ kind: z.literal('price'), amount: z.number(), currency: z.string().regex(/^[A-Z]{3}$/), note: labelSchema.optional() }),
  z.object({ kind: z.literal('rating'), value: z.number(), max: z.number().positive(), count: z.number().optional() }),
  z.object({ kind: z.literal('rows'), rows: z.array(z.object({ label: labelSchema, value: stampedValueSchema })).min(1).max(24) }),
  z.object({ kind: z.literal('chips'), items: z.array(z.string().max(80)).min(1).max(30) }),
  z.object({ kind: z.literal('callout'), tone: toneSchema, text: labelSchema }),
  z.object({ kind: z.literal('text'), heading: labelSchema.optional(), markdown: z.string().max(20_000) }),
  z.object({ kind: z.literal('quote'), caption: labelSchema.optional(), text: z.string().max(20_000) }),
  z.object({
    kind: z.literal('list'),
    heading: labelSchema.optional(),
    ordered: z.boolean(),
    items: z.array(z.object({ text: z.string().max(2000), detail: z.string().max(2000).optional(), tone: toneSchema.optional() })).min(1).max(60),
  }),
  z.object({
    kind: z.literal('change'),
    label: labelSchema.optional(),
    value: z.number(),
    format: z.enum(['percent', 'number', 'money']),
    currency: z.string().regex(/^[A-Z]{3}$/).optional(),
    good: z.enum(['up', 'down']),
  }),
  z.object({ kind: z.literal('trend'), label: labelSchema.optional(), points: z.array(z.number()).min(2).max(500) }),
  z.object({
    kind: z.literal('metrics'),
    items: z
      .array(z.object({ label: z.string().max(120), value: stampedValueSchema, change: z.number().optional(), trend: z.array(z.number()).max(500).optional() }))
      .min(1)
      .max(12),
  }),
]);
export type Block = z.infer<typeof blockSchema>;

// Stamping ---------------------------------------------------------------------------------------------

type Data = Record<string, unknown>;

export function readPath(data: unknown, p: string): unknown {
  let value: unknown = data;
  for (const key of p.split('.')) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
    value = (value as Data)[key];
  }
  return value;
}

const isBlank = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

/** A value as text inside a sentence: lists joined, numbers as written, nothing for objects. */
function asText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (Array.isArray(v)) return v.map(asText).filter(Boolean).join(', ');
  return '';
}

/**
 * Fills `{{path}}` placeholders. A text whose placeholders are all empty is empty (so its block is
 * left out), and separators left dangling by a missing piece are trimmed.
 */
export function fill(text: string, scope: unknown): string {
  const placeholders = [...text.matchAll(/\{\{\s*([^}\s]+)\s*\}\}/g)];
  if (placeholders.length === 0) return text;
  if (placeholders.every((m) => asText(readPath(scope, m[1]!)) === '')) return '';
  return text
    .replace(/\{\{\s*([^}\s]+)\s*\}\}/g, (_m, p: string) => asText(readPath(scope, p)))
    .replace(/\s+/g, ' ')
    .replace(/^[\s·,–—-]+|[\s·,–—→-]+$/g, '')
    .trim();
}

function fillLabel(label: Label, scope: unknown): Label | undefined {
  if (typeof label === 'string') return fill(label, scope) || undefined;
  const en = fill(label.en, scope);
  const it = fill(label.it, scope);
  return en || it ? { en: en || it, it: it || en } : undefined;
}

const currencyOf = (scope: unknown, p: string | undefined) => {
  const c = p ? readPath(scope, p) : undefined;
  return typeof c === 'string' && /^[A-Z]{3}$/.test(c) ? c : 'EUR';
};

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** One data value in the requested format, or undefined when it does not fit (the row is left out). */
export function stampValue(v: unknown, format: (typeof FORMATS)[number], currency = 'EUR', map?: Record<string, Label>): StampedValue | undefined {
  if (isBlank(v)) return undefined;
  if (map) {
    const mapped = typeof v === 'string' ? map[v] : undefined;
    return mapped ? { t: 'label', v: mapped } : undefined;
  }
  const n = typeof v === 'number' && Number.isFinite(v) ? v : undefined;
  switch (format) {
    case 'date':
      return typeof v === 'string' && (ISO_DATE.test(v) || ISO_DATETIME.test(v)) ? { t: 'date', v } : undefined;
    case 'datetime':
      return typeof v === 'string' && ISO_DATETIME.test(v) ? { t: 'datetime', v } : undefined;
    case 'number':
      return n === undefined ? undefined : { t: 'number', v: n };
    case 'money':
      return n === undefined ? undefined : { t: 'money', v: n, currency };
    case 'percent':
      return n === undefined ? undefined : { t: 'percent', v: n };
    case 'duration':
      return n === undefined ? undefined : { t: 'duration', v: n };
    case 'bool':
      return typeof v === 'boolean' ? { t: 'bool', v } : undefined;
    case 'text': {
      const text = asText(v);
      return text ? { t: 'text', v: text.slice(0, 2000) } : undefined;
    }
  }
}

const numbers = (v: unknown): number[] | undefined =>
  Array.isArray(v) && v.length >= 2 && v.every((x) => typeof x === 'number' && Number.isFinite(x)) ? (v as number[]).slice(-500) : undefined;

/** A `{label, value, change?, trend?}` object (or a list of them) as metric tiles. */
function stampMetrics(v: unknown): Extract<Block, { kind: 'metrics' }>['items'] {
  const list = Array.isArray(v) ? v : v && typeof v === 'object' ? [v] : [];
  return list.slice(0, 12).flatMap((m) => {
    if (!m || typeof m !== 'object') return [];
    const { label, value, change, trend } = m as Data;
    const stamped = typeof value === 'number' ? stampValue(value, 'number') : stampValue(value, 'text');
    if (typeof label !== 'string' || !label || !stamped) return [];
    return [
      {
        label: label.slice(0, 120),
        value: stamped,
        ...(typeof change === 'number' && Number.isFinite(change) ? { change } : {}),
        ...(numbers(trend) ? { trend: numbers(trend) } : {}),
      },
    ];
  });
}

function stampBlock(block: TemplateBlock, scope: unknown): Block[] {
  switch (block.kind) {
    case 'each': {
      const items = readPath(scope, block.items);
      if (!Array.isArray(items)) return [];
      return items.slice(0, 20).flatMap((item) => block.blocks.flatMap((b) => stampBlock(b, item)));
    }
    case 'image': {
      const src = readPath(scope, block.src);
      return typeof src === 'string' && isSafeImageUrl(src) ? [{ kind: 'image', src, alt: block.alt ? fill(block.alt, scope) : '' }] : [];
    }
    case 'title': {
      const text = fill(block.text, scope);
      const subtitle = block.subtitle ? fillLabel(block.subtitle, scope) : undefined;
      return text ? [{ kind: 'title', text, ...(subtitle ? { subtitle } : {}) }] : [];
    }
    case 'price': {
      const amount = readPath(scope, block.amount);
      if (typeof amount !== 'number' || !Number.isFinite(amount)) return [];
      return [{ kind: 'price', amount, currency: currencyOf(scope, block.currency), ...(block.note ? { note: block.note } : {}) }];
    }
    case 'rating': {
      const value = readPath(scope, block.value);
      const count = block.count ? readPath(scope, block.count) : undefined;
      if (typeof value !== 'number' || !Number.isFinite(value)) return [];
      return [{ kind: 'rating', value: Math.min(Math.max(value, 0), block.max), max: block.max, ...(typeof count === 'number' ? { count } : {}) }];
    }
    case 'rows': {
      const rows = block.rows.flatMap((row) => {
        const value =
          'text' in row
            ? stampValue(fill(row.text, scope), 'text')
            : stampValue(readPath(scope, row.value), row.format, currencyOf(scope, row.currency), row.map);
        return value ? [{ label: row.label, value }] : [];
      });
      return rows.length ? [{ kind: 'rows', rows }] : [];
    }
    case 'chips': {
      const items = readPath(scope, block.items);
      const chips = Array.isArray(items) ? items.map(asText).filter(Boolean).map((s) => s.slice(0, 80)).slice(0, 30) : [];
      return chips.length ? [{ kind: 'chips', items: chips }] : [];
    }
    case 'callout': {
      const tone = typeof block.tone === 'string' ? block.tone : block.tone.map[asText(readPath(scope, block.tone.from))] ?? 'info';
      const mapped = block.value ? stampValue(readPath(scope, block.value), 'text', 'EUR', block.map) : undefined;
      const text = mapped ? (mapped.t === 'label' || mapped.t === 'text' ? mapped.v : undefined) : block.text ? fillLabel(block.text, scope) : undefined;
      return text ? [{ kind: 'callout', tone, text }] : [];
    }
    case 'text': {
      const markdown = asText(readPath(scope, block.value)).slice(0, 20_000);
      return markdown ? [{ kind: 'text', ...(block.heading ? { heading: block.heading } : {}), markdown }] : [];
    }
    case 'quote': {
      const text = asText(readPath(scope, block.value)).slice(0, 20_000);
      const caption = block.caption ? fillLabel(block.caption, scope) : undefined;
      return text ? [{ kind: 'quote', text, ...(caption ? { caption } : {}) }] : [];
    }
    case 'list': {
      const items = readPath(scope, block.items);
      if (!Array.isArray(items)) return [];
      const stamped = items.slice(0, 60).flatMap((item) => {
        if (!block.item) {
          const text = asText(item);
          return text ? [{ text: text.slice(0, 2000) }] : [];
        }
        const text = fill(block.item.text, item);
        const detail = block.item.detail ? fill(block.item.detail, item) : '';
        const tone = block.item.tone ? toneSchema.safeParse(readPath(item, block.item.tone)) : undefined;
        return text ? [{ text: text.slice(0, 2000), ...(detail ? { detail: detail.slice(0, 2000) } : {}), ...(tone?.success ? { tone: tone.data } : {}) }] : [];
      });
      const heading = block.heading ? fillLabel(block.heading, scope) : undefined;
      return stamped.length ? [{ kind: 'list', ordered: block.ordered, items: stamped, ...(heading ? { heading } : {}) }] : [];
    }
    case 'change': {
      const value = readPath(scope, block.value);
      if (typeof value !== 'number' || !Number.isFinite(value)) return [];
      return [
        {
          kind: 'change',
          value,
          format: block.format,
          good: block.good,
          ...(block.label ? { label: block.label } : {}),
          ...(block.format === 'money' ? { currency: currencyOf(scope, block.currency) } : {}),
        },
      ];
    }
    case 'trend': {
      const points = numbers(readPath(scope, block.points));
      return points ? [{ kind: 'trend', points, ...(block.label ? { label: block.label } : {}) }] : [];
    }
    case 'metrics': {
      const items = stampMetrics(readPath(scope, block.items));
      return items.length ? [{ kind: 'metrics', items }] : [];
    }
  }
}

/** Resolves a template against one result's data: only final values remain. */
export function stampTemplate(template: Template, data: Data): Block[] {
  // Every stamped block is checked against the block schema, so a card is never half-valid.
  return template.flatMap((b) => stampBlock(b, data)).filter((b) => blockSchema.safeParse(b).success);
}

// The default layout -------------------------------------------------------------------------------------

const humanize = (key: string) => {
  const words = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_.-]+/g, ' ').trim().toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

const TITLE_KEYS = ['title', 'name', 'subject', 'symbol', 'service', 'customer', 'label'];
const MONEY_KEY = /price|amount|value|total|salary|cost|revenue|fee|rate$/i;
const PERCENT_KEY = /percent|probability/i;

/**
 * The layout used when no template fits: the unknown or retired template of a known type (with that
 * type's field labels), or a type nobody declared. Built from the data's shape alone — a title, a
 * photo, rows for short values, chips for short lists, sections for long text, a trend for a series,
 * a list for objects — and never raw JSON: values it cannot show are left out.
 */
export function defaultLayout(data: Data, options: { labels?: Record<string, Label>; fallbackTitle: Label }): Block[] {
  const label = (key: string): Label => options.labels?.[key] ?? humanize(key);
  const currency = currencyOf(data, 'currency');
  const titleKey = TITLE_KEYS.find((k) => typeof data[k] === 'string' && data[k]);
  const blocks: Block[] = [];
  const image = typeof data.image === 'string' && isSafeImageUrl(data.image) ? data.image : undefined;
  if (image) blocks.push({ kind: 'image', src: image, alt: titleKey ? String(data[titleKey]) : '' });
  blocks.push({ kind: 'title', text: titleKey ? String(data[titleKey]).slice(0, 300) : options.fallbackTitle });

  const rows: Extract<Block, { kind: 'rows' }>['rows'] = [];
  const tail: Block[] = [];
  for (const [key, value] of Object.entries(data)) {
    if (key === titleKey || key === 'image' || key === 'currency' || isBlank(value)) continue;
    if (typeof value === 'string') {
      if (value.length > 160 || value.includes('\n')) tail.push({ kind: 'text', heading: label(key), markdown: value.slice(0, 20_000) });
      else {
        const format = ISO_DATETIME.test(value) ? 'datetime' : ISO_DATE.test(value) ? 'date' : 'text';
        rows.push({ label: label(key), value: stampValue(value, format)! });
      }
    } else if (typeof value === 'number' && Number.isFinite(value)) {
      const format = MONEY_KEY.test(key) ? 'money' : PERCENT_KEY.test(key) ? 'percent' : /minutes$/i.test(key) ? 'duration' : 'number';
      rows.push({ label: label(key), value: stampValue(value, format, currency)! });
    } else if (typeof value === 'boolean') {
      rows.push({ label: label(key), value: { t: 'bool', v: value } });
    } else if (numbers(value)) {
      tail.push({ kind: 'trend', label: label(key), points: numbers(value)! });
    } else if (Array.isArray(value)) {
      const texts = value.map((v) => (v && typeof v === 'object' ? firstText(v as Data) : asText(v))).filter(Boolean);
      if (texts.length === 0) continue;
      if (texts.every((t) => t.length <= 40) && value.every((v) => typeof v !== 'object')) tail.push({ kind: 'chips', items: texts.slice(0, 30) });
      else tail.push({ kind: 'list', heading: label(key), ordered: false, items: texts.slice(0, 60).map((text) => ({ text: text.slice(0, 2000) })) });
    } else if (value && typeof value === 'object') {
      // One level down, as rows named "Parent · child".
      for (const [child, v] of Object.entries(value as Data)) {
        const stamped = typeof v === 'number' ? stampValue(v, 'number') : typeof v === 'string' && v.length <= 160 ? stampValue(v, 'text') : undefined;
        if (stamped) rows.push({ label: `${plain(label(key))} · ${humanize(child)}`, value: stamped });
      }
    }
  }
  if (rows.length) blocks.push({ kind: 'rows', rows: rows.slice(0, 24) });
  blocks.push(...tail);
  return blocks.filter((b) => blockSchema.safeParse(b).success);
}

const plain = (label: Label) => (typeof label === 'string' ? label : label.en);

function firstText(item: Data): string {
  const key = TITLE_KEYS.find((k) => typeof item[k] === 'string') ?? Object.keys(item).find((k) => typeof item[k] === 'string');
  const rest = Object.entries(item).filter(([k, v]) => k !== key && typeof v === 'string' && v.length <= 120);
  const head = key ? String(item[key]) : '';
  return rest.length && head ? `${head} — ${rest.map(([, v]) => v).join(', ')}` : head;
}
