import type { AuthorKind } from './kinds';

/**
 * What the send path reads out of a message body. Both are exact syntaxes, never guesses: a side
 * thread exists only where a `<dm target="…">…</dm>` tag says so, and a mention is `@` followed by
 * the name of someone in the conversation.
 */

export interface SideThreadBlock {
  /** Agent names as written, in order, without duplicates (case-insensitive). */
  targets: string[];
  body: string;
}

const DM_TAG = /<dm\s+target\s*=\s*"([^"]*)"\s*>([\s\S]*?)<\/dm\s*>/gi;

/** Splits `<dm target="Nova, Atlas">…</dm>` blocks (several targets separated by commas) out of a body. */
export function extractSideThreads(body: string): { text: string; blocks: SideThreadBlock[] } {
  const blocks: SideThreadBlock[] = [];
  const text = body.replace(DM_TAG, (_tag, targetList: string, inner: string) => {
    const seen = new Set<string>();
    const targets = targetList
      .split(',')
      .map((t) => t.trim())
      .filter((t) => t && !seen.has(t.toLowerCase()) && seen.add(t.toLowerCase()));
    blocks.push({ targets, body: inner.trim() });
    return '';
  });
  return { text: blocks.length ? text.replace(/\n{3,}/g, '\n\n').trim() : body.trim(), blocks };
}

export interface Mentionable {
  type: AuthorKind;
  id: string;
  name: string;
}

const NAME_CHAR = /[\p{L}\p{N}_]/u;

/**
 * `@Name` mentions of `people`, in order of first appearance. At each `@` the longest matching name
 * wins ("@Nova Prime" is Nova Prime, not Nova), and a name must end at a word boundary ("@Novak" is
 * not Nova). Case-insensitive.
 */
export function findMentions(text: string, people: Mentionable[]): Mentionable[] {
  const byLength = [...people].filter((p) => p.name).sort((a, b) => b.name.length - a.name.length);
  const lower = text.toLowerCase();
  const found = new Map<string, Mentionable>();
  for (let at = lower.indexOf('@'); at !== -1; at = lower.indexOf('@', at + 1)) {
    const match = byLength.find((p) => {
      const name = p.name.toLowerCase();
      const next = text[at + 1 + name.length];
      return lower.startsWith(name, at + 1) && (next === undefined || !NAME_CHAR.test(next));
    });
    if (match && !found.has(match.id)) found.set(match.id, match);
  }
  return [...found.values()];
}
