/**
 * The one Markdown reader, for documents, cards and chat messages (CommonMark's everyday subset:
 * headings, paragraphs, lists, quotes, code, tables, rules, emphasis, strikethrough, code spans,
 * links and bare URLs, plus chat's `•` bullets and `@mentions`). It produces a tree, never HTML: the
 * screen renders the tree as React elements and the PDF writer lays it out, so no markup from a text
 * ever reaches the page. Links keep only http(s) and mailto targets. Client-safe.
 */

export type Inline =
  | { t: 'text'; v: string }
  | { t: 'code'; v: string }
  /** `@Name` as written, for a name the caller recognised. */
  | { t: 'mention'; v: string }
  /** A line end inside a paragraph, quote or list item: a chat bubble breaks there, a document does not. */
  | { t: 'br' }
  | { t: 'strong'; c: Inline[] }
  | { t: 'em'; c: Inline[] }
  | { t: 'strike'; c: Inline[] }
  | { t: 'link'; href: string; c: Inline[] };

export type MdBlock =
  | { t: 'heading'; level: 1 | 2 | 3 | 4 | 5 | 6; c: Inline[] }
  | { t: 'p'; c: Inline[] }
  | { t: 'list'; ordered: boolean; start: number; items: Inline[][] }
  | { t: 'code'; lang: string; v: string }
  | { t: 'quote'; c: Inline[] }
  | { t: 'hr' }
  | { t: 'table'; head: Inline[][]; rows: Inline[][][] };

const FENCE = /^\s{0,3}(`{3,}|~{3,})\s*([\w+#.-]*)/;
// Closing hashes need a space before them, so "# Learn C#" keeps its "#".
const HEADING = /^\s{0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$/;
const RULE = /^\s{0,3}([-*_])(\s*\1){2,}\s*$/;
const BULLET = /^\s*[-*+•]\s+(.*)$/;
const NUMBERED = /^\s*(\d{1,9})[.)]\s+(.*)$/;
const QUOTE = /^\s{0,3}>\s?(.*)$/;
const TABLE_RULE = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;

const cells = (line: string) =>
  line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.trim().replace(/\\\|/g, '|'));

/** `mentions`: the names to mark when written as `@Name` (those the server recognised in a message). */
export function parseMarkdown(source: string, { mentions = [] }: { mentions?: string[] } = {}): MdBlock[] {
  // Longest first, so "@Nova Prime" is Nova Prime and not Nova followed by " Prime".
  const names = mentions.filter(Boolean).sort((a, b) => b.length - a.length);
  const inline = (text: string) => parseInline(text, names);
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: MdBlock[] = [];
  let i = 0;
  const startsBlock = (line: string, next?: string) =>
    FENCE.test(line) || HEADING.test(line) || RULE.test(line) || BULLET.test(line) || NUMBERED.test(line) || QUOTE.test(line) || (line.includes('|') && next !== undefined && TABLE_RULE.test(next));

  while (i < lines.length) {
    const line = lines[i]!;
    if (!line.trim()) {
      i++;
      continue;
    }
    const fence = line.match(FENCE);
    if (fence) {
      const body: string[] = [];
      i++;
      while (i < lines.length && !lines[i]!.trim().startsWith(fence[1]!)) body.push(lines[i++]!);
      i++;
      blocks.push({ t: 'code', lang: fence[2] ?? '', v: body.join('\n') });
      continue;
    }
    const heading = line.match(HEADING);
    if (heading) {
      blocks.push({ t: 'heading', level: heading[1]!.length as 1, c: inline(heading[2]!) });
      i++;
      continue;
    }
    if (RULE.test(line)) {
      blocks.push({ t: 'hr' });
      i++;
      continue;
    }
    if (line.includes('|') && i + 1 < lines.length && TABLE_RULE.test(lines[i + 1]!)) {
      const head = cells(line).map(inline);
      const rows: Inline[][][] = [];
      i += 2;
      while (i < lines.length && lines[i]!.includes('|') && lines[i]!.trim()) rows.push(cells(lines[i++]!).map(inline));
      blocks.push({ t: 'table', head, rows });
      continue;
    }
    if (QUOTE.test(line)) {
      const body: string[] = [];
      while (i < lines.length && QUOTE.test(lines[i]!)) body.push(lines[i++]!.match(QUOTE)![1]!);
      blocks.push({ t: 'quote', c: inline(body.join('\n')) });
      continue;
    }
    const bullet = BULLET.test(line);
    const numbered = line.match(NUMBERED);
    if (bullet || numbered) {
      const pattern = bullet ? BULLET : NUMBERED;
      const items: string[] = [];
      while (i < lines.length) {
        const current = lines[i]!;
        const m = current.match(pattern);
        if (m) items.push(m[bullet ? 1 : 2]!);
        // An indented line continues the item above it.
        else if (current.trim() && /^\s{2,}/.test(current) && items.length) items[items.length - 1] += `\n${current.trim()}`;
        else break;
        i++;
      }
      blocks.push({ t: 'list', ordered: !bullet, start: numbered ? Number(numbered[1]) : 1, items: items.map(inline) });
      continue;
    }
    const para: string[] = [];
    while (i < lines.length && lines[i]!.trim() && (para.length === 0 || !startsBlock(lines[i]!, lines[i + 1]))) para.push(lines[i++]!.trim());
    blocks.push({ t: 'p', c: inline(para.join('\n')) });
  }
  return blocks;
}

const SAFE_PROTOCOLS = ['http:', 'https:', 'mailto:'];

// Parsed the way a browser will read the href, so no spelling of a script URL slips through.
function isSafeHref(href: string): boolean {
  try {
    return SAFE_PROTOCOLS.includes(new URL(href).protocol);
  } catch {
    return false;
  }
}

const NAME_CHAR = /[\p{L}\p{N}_]/u;

/** Emphasis, strikethrough, code spans, links, mentions of `names` (longest first) and line ends; everything else is text. */
function parseInline(text: string, names: string[]): Inline[] {
  const out: Inline[] = [];
  let plain = '';
  const flush = () => {
    if (plain) out.push({ t: 'text', v: plain });
    plain = '';
  };
  let i = 0;
  while (i < text.length) {
    const rest = text.slice(i);
    const code = rest.match(/^(`+)([\s\S]*?[^`])\1(?!`)/);
    if (code) {
      flush();
      out.push({ t: 'code', v: code[2]!.replace(/\n/g, ' ').trim() });
      i += code[0].length;
      continue;
    }
    // A target may hold one level of balanced parentheses (wiki-style URLs).
    const link = rest.match(/^\[([^\]]+)\]\(\s*([^()\s]*(?:\([^()\s]*\)[^()\s]*)*)(?:\s+"[^"]*")?\s*\)/);
    if (link) {
      flush();
      // No mentions in a label, and no links: an address written as the label stays the label.
      out.push(isSafeHref(link[2]!) ? { t: 'link', href: link[2]!, c: withoutLinks(parseInline(link[1]!, [])) } : { t: 'text', v: link[1]! });
      i += link[0].length;
      continue;
    }
    const bare = rest.match(/^https?:\/\/[^\s<>()]+[^\s<>().,;:!?'"]/);
    if (bare && (i === 0 || !NAME_CHAR.test(text[i - 1]!)) && isSafeHref(bare[0])) {
      flush();
      out.push({ t: 'link', href: bare[0], c: [{ t: 'text', v: bare[0] }] });
      i += bare[0].length;
      continue;
    }
    const strong = rest.match(/^(\*\*|__)(?=\S)([\s\S]*?\S)\1/);
    if (strong) {
      flush();
      out.push({ t: 'strong', c: parseInline(strong[2]!, names) });
      i += strong[0].length;
      continue;
    }
    const em = rest.match(/^(\*|_)(?=\S)([\s\S]*?\S)\1(?![\p{L}\p{N}_*])/u);
    if (em && (em[1] === '*' || i === 0 || !NAME_CHAR.test(text[i - 1]!))) {
      flush();
      out.push({ t: 'em', c: parseInline(em[2]!, names) });
      i += em[0].length;
      continue;
    }
    const strike = rest.match(/^~~(?=\S)([\s\S]*?\S)~~/);
    if (strike) {
      flush();
      out.push({ t: 'strike', c: parseInline(strike[1]!, names) });
      i += strike[0].length;
      continue;
    }
    if (text[i] === '@') {
      // The same rule as the server's: the name matches case-insensitively and ends where a word would.
      const name = names.find((n) => text.slice(i + 1, i + 1 + n.length).toLowerCase() === n.toLowerCase() && !NAME_CHAR.test(text[i + 1 + n.length] ?? ''));
      if (name) {
        flush();
        out.push({ t: 'mention', v: text.slice(i, i + 1 + name.length) });
        i += 1 + name.length;
        continue;
      }
    }
    if (text[i] === '\n') {
      flush();
      out.push({ t: 'br' });
      i++;
      continue;
    }
    if (text[i] === '\\' && i + 1 < text.length && /[\\`*_[\]()#+\-.!|>~]/.test(text[i + 1]!)) {
      plain += text[i + 1];
      i += 2;
      continue;
    }
    plain += text[i];
    i++;
  }
  flush();
  return out;
}

const withoutLinks = (nodes: Inline[]): Inline[] => nodes.flatMap((n) => (n.t === 'link' ? withoutLinks(n.c) : 'c' in n ? [{ ...n, c: withoutLinks(n.c) }] : [n]));

/** The text of inline content, without its marks. */
export const inlineText = (nodes: Inline[]): string =>
  nodes.map((n) => (n.t === 'br' ? '\n' : n.t === 'text' || n.t === 'code' || n.t === 'mention' ? n.v : inlineText(n.c))).join('');
