import { z } from 'zod';
import { validate, validationError } from '@/lib/api';
import { asService, type Tx } from '@/lib/db';
import { APPROVAL_VERBS, actionInputSchema, defaultActions, type Card, type CardAction } from './card';
import { defaultLayout, stampTemplate, type Block } from './layout';
import { fieldLabels, isResultType, resultSchemas, typeLabels } from './types';
import { findTemplate, type ResolvedTemplate } from './templates';

/** How long an approval card's OK counts when the agent gives no deadline. */
export const APPROVAL_TTL_MS = 24 * 60 * 60 * 1000;

/** One result as an agent publishes it. */
export const resultInputSchema = z.object({
  type: z.string().regex(/^[a-z][a-z0-9_]{0,39}$/, 'api.cards.resultType'),
  /** A library template by name; unknown or retired names fall back to the type's default layout. */
  template: z.string().max(64).optional(),
  data: z.record(z.string(), z.unknown()).refine((d) => JSON.stringify(d).length <= 20_000, 'api.cards.resultTooLong'),
  actions: z.array(actionInputSchema).max(4).optional(),
});
export type ResultInput = z.input<typeof resultInputSchema>;

/** Reads the library once per template name for a batch of cards stamped in one transaction. */
function templateLookup(tx: Tx): (name: string) => Promise<ResolvedTemplate | undefined> {
  const read = new Map<string, Promise<ResolvedTemplate | undefined>>();
  return (name) => {
    if (!read.has(name)) read.set(name, findTemplate(tx, name));
    return read.get(name)!;
  };
}

/**
 * Stamps one result into a card: validates its data against its type, resolves the layout (the named
 * template → the type's own template → the built-in default layout), and fixes its buttons. What it
 * returns is final; the message keeps it as is.
 */
async function stampCard(
  lookup: (name: string) => Promise<ResolvedTemplate | undefined>,
  input: z.output<typeof resultInputSchema>,
  id: string,
): Promise<Card> {
  const known = isResultType(input.type);
  let data: Record<string, unknown> = input.data;
  if (isResultType(input.type)) {
    const parsed = resultSchemas[input.type].safeParse(input.data, { reportInput: true });
    if (!parsed.success) {
      throw validationError(parsed.error.issues, 'body', (field, problem) => ({ key: 'api.cards.resultDataInvalid', params: { type: input.type, field, problem } }));
    }
    data = parsed.data as Record<string, unknown>;
  }

  let template: Card['template'] = null;
  let fallback: Card['fallback'];
  let blocks: Block[] = [];
  const candidates = [...new Set([input.template, input.type].filter((n): n is string => Boolean(n)))];
  for (const name of candidates) {
    const found = await lookup(name);
    if (!found || found.resultType !== input.type) continue;
    blocks = stampTemplate(found.layout, data);
    if (blocks.length === 0) continue;
    template = { name: found.name, version: found.version };
    break;
  }
  if (!template) {
    fallback = known ? 'type_default' : 'generic';
    blocks = defaultLayout(data, { labels: known ? fieldLabels : undefined, fallbackTitle: known ? typeLabels[input.type as keyof typeof typeLabels] : humanType(input.type) });
  } else if (input.template && input.template !== template.name) {
    fallback = 'type_default';
  }

  return {
    v: 1,
    id,
    type: input.type,
    template,
    ...(fallback ? { fallback } : {}),
    blocks,
    actions: stampActions(input.actions ?? (known ? defaultActions[input.type as keyof typeof defaultActions] : undefined) ?? []),
    data,
    ...(input.type === 'approval' ? { expiresAt: typeof data.expiresAt === 'string' ? data.expiresAt : new Date(Date.now() + APPROVAL_TTL_MS).toISOString() } : {}),
  };
}

const humanType = (type: string) => type.charAt(0).toUpperCase() + type.slice(1).replace(/_/g, ' ');

function stampActions(inputs: z.input<typeof actionInputSchema>[]): CardAction[] {
  const seen = new Set<string>();
  return inputs.map((raw) => {
    const a = actionInputSchema.parse(raw);
    let id = a.id ?? a.verb;
    for (let n = 2; seen.has(id); n++) id = `${(a.id ?? a.verb).slice(0, 36)}-${n}`;
    seen.add(id);
    return {
      id,
      label: a.label,
      verb: a.verb,
      ...(a.data ? { data: a.data } : {}),
      style: a.style,
      approval: Boolean(a.requiresApproval) || APPROVAL_VERBS.has(a.verb),
    };
  });
}

/**
 * Stamps results outside any message (the Home's approval cards, made afresh for each reader in
 * their language): same library, same rules, one transaction. Server code only; the cards go to
 * `<CardView>` or `<ResultCard>`. Ids are `c1`, `c2`… in the order given.
 */
export async function stampResults(inputs: ResultInput[]): Promise<Card[]> {
  const parsed = inputs.map((input) => validate(resultInputSchema, input));
  if (parsed.length === 0) return [];
  return asService((tx) => stampCards(tx, parsed));
}

/** Validated results stamped in order in one transaction, the library read once per template; ids `c1`, `c2`… */
export async function stampCards(tx: Tx, results: z.output<typeof resultInputSchema>[]): Promise<Card[]> {
  const lookup = templateLookup(tx);
  const cards: Card[] = [];
  for (const [i, result] of results.entries()) cards.push(await stampCard(lookup, result, `c${i + 1}`));
  return cards;
}
