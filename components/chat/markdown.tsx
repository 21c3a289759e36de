import { Fragment, type ReactNode } from 'react';

/**
 * Chat markdown, rendered as React elements and never as HTML, so a message cannot inject markup:
 * paragraphs and line breaks, **bold**, *italics*, `code` and fenced code blocks, links (http,
 * https and mailto only; bare URLs too), bulleted and numbered lists, quotes, and @mentions of the
 * people and agents the server recognised in the message. Everything else shows as the text it is.
 */
export function ChatMarkdown({ source, mentions = [] }: { source: string; mentions?: string[] }) {
  const names = [...new Set(mentions)].filter(Boolean).sort((a, b) => b.length - a.length);
  return <div className="flex flex-col gap-2 break-words [overflow-wrap:anywhere]">{blocks(source, names)}</div>;
}

type Block = { kind: 'p' | 'quote'; lines: string[] } | { kind: 'ul' | 'ol'; items: string[] } | { kind: 'code'; text: string };

const BULLET = /^\s*[-*•]\s+(.*)$/;
const NUMBERED = /^\s*\d{1,3}[.)]\s+(.*)$/;

function parseBlocks(source: string): Block[] {
  const out: Block[] = [];
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^\s*```/.test(line)) {
      const code: string[] = [];
      while (++i < lines.length && !/^\s*```/.test(lines[i]!)) code.push(lines[i]!);
      out.push({ kind: 'code', text: code.join('\n') });
      continue;
    }
    if (!line.trim()) continue;
    const last = out.at(-1);
    const bullet = BULLET.exec(line);
    const numbered = NUMBERED.exec(line);
    const quote = /^\s*>\s?(.*)$/.exec(line);
    if (bullet || numbered) {
      const kind = bullet ? 'ul' : 'ol';
      const item = (bullet ?? numbered)![1]!;
      if (last?.kind === kind && !blankBefore(lines, i)) last.items.push(item);
      else out.push({ kind, items: [item] });
    } else if (quote) {
      if (last?.kind === 'quote' && !blankBefore(lines, i)) last.lines.push(quote[1]!);
      else out.push({ kind: 'quote', lines: [quote[1]!] });
    } else if (last?.kind === 'p' && !blankBefore(lines, i)) {
      last.lines.push(line);
    } else {
      // A heading ("# Title") reads as a bold line in a chat bubble.
      const heading = /^\s*#{1,6}\s+(.*)$/.exec(line);
      out.push({ kind: 'p', lines: [heading ? `**${heading[1]}**` : line] });
    }
  }
  return out;
}

const blankBefore = (lines: string[], i: number) => i > 0 && !lines[i - 1]!.trim();

function blocks(source: string, names: string[]): ReactNode[] {
  return parseBlocks(source).map((block, i) => {
    switch (block.kind) {
      case 'p':
        return <p key={i}>{withBreaks(block.lines, names)}</p>;
      case 'quote':
        return (
          <blockquote key={i} className="border-l-4 border-line-strong/40 pl-3 text-muted">
            {withBreaks(block.lines, names)}
          </blockquote>
        );
      case 'ul':
      case 'ol': {
        const items = block.items.map((item, n) => <li key={n}>{inline(item, names)}</li>);
        return block.kind === 'ul' ? (
          <ul key={i} className="list-disc pl-5">
            {items}
          </ul>
        ) : (
          <ol key={i} className="list-decimal pl-5">
            {items}
          </ol>
        );
      }
      case 'code':
        return (
          <pre key={i} className="overflow-x-auto rounded-lg bg-subtle p-3 font-mono text-sm">
            <code>{block.text}</code>
          </pre>
        );
    }
  });
}

function withBreaks(lines: string[], names: string[]): ReactNode[] {
  return lines.map((line, i) => (
    <Fragment key={i}>
      {i > 0 && <br />}
      {inline(line, names)}
    </Fragment>
  ));
}

// One pass over the text; the earliest match wins. Code spans first so nothing inside them is read.
const INLINE =
  /(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)|\[([^\]\n]+)\]\(([^)\s]+)\)|(https?:\/\/[^\s<>()]+[^\s<>().,:;!?'"])|\*\*(?=\S)([\s\S]+?)\*\*|__(?=\S)([\s\S]+?)__|\*(?=[^\s*])([\s\S]*?[^\s*])\*|(?<![\p{L}\p{N}_])_(?=[^\s_])([\s\S]*?[^\s_])_(?![\p{L}\p{N}_])|~~(?=\S)([\s\S]+?)~~/gu;

function safeHref(url: string): string | null {
  try {
    const parsed = new URL(url);
    return ['http:', 'https:', 'mailto:'].includes(parsed.protocol) ? parsed.toString() : null;
  } catch {
    return null;
  }
}

function link(href: string, children: ReactNode, key: number) {
  return (
    <a key={key} href={href} target="_blank" rel="noopener noreferrer nofollow" className="font-medium text-accent-ink underline underline-offset-2">
      {children}
    </a>
  );
}

function inline(text: string, names: string[], depth = 0): ReactNode[] {
  if (depth > 4) return withMentions(text, names);
  const out: ReactNode[] = [];
  let at = 0;
  let key = 0;
  const plain = (part: string) => out.push(<Fragment key={key++}>{withMentions(part, names)}</Fragment>);
  for (const m of text.matchAll(INLINE)) {
    if (m.index > at) plain(text.slice(at, m.index));
    at = m.index + m[0].length;
    const [whole, , code, linkText, linkUrl, bare, bold1, bold2, em1, em2, strike] = m;
    if (code !== undefined) {
      out.push(
        <code key={key++} className="rounded bg-subtle px-1 py-0.5 font-mono text-[0.875em]">
          {code}
        </code>,
      );
    } else if (linkText !== undefined) {
      const href = safeHref(linkUrl!);
      out.push(href ? link(href, inline(linkText, [], depth + 1), key++) : <Fragment key={key++}>{whole}</Fragment>);
    } else if (bare !== undefined) {
      const href = safeHref(bare);
      out.push(href ? link(href, bare, key++) : <Fragment key={key++}>{bare}</Fragment>);
    } else if (bold1 !== undefined || bold2 !== undefined) {
      out.push(<strong key={key++}>{inline((bold1 ?? bold2)!, names, depth + 1)}</strong>);
    } else if (em1 !== undefined || em2 !== undefined) {
      out.push(<em key={key++}>{inline((em1 ?? em2)!, names, depth + 1)}</em>);
    } else if (strike !== undefined) {
      out.push(<s key={key++}>{inline(strike, names, depth + 1)}</s>);
    }
  }
  if (at < text.length) plain(text.slice(at));
  return out;
}

/** Marks `@Name` for each name the server recognised as a mention (longest names first). */
function withMentions(text: string, names: string[]): ReactNode[] {
  if (names.length === 0 || !text.includes('@')) return [text];
  const out: ReactNode[] = [];
  let rest = text;
  let key = 0;
  for (;;) {
    const lower = rest.toLowerCase();
    let found: { at: number; name: string } | null = null;
    for (let at = lower.indexOf('@'); at !== -1 && !found; at = lower.indexOf('@', at + 1)) {
      const name = names.find((n) => lower.startsWith(n.toLowerCase(), at + 1) && !/[\p{L}\p{N}_]/u.test(rest[at + 1 + n.length] ?? ''));
      if (name) found = { at, name };
    }
    if (!found) break;
    if (found.at > 0) out.push(rest.slice(0, found.at));
    out.push(
      <span key={`m${key++}`} className="rounded bg-accent-soft px-0.5 font-semibold text-accent-ink">
        {rest.slice(found.at, found.at + 1 + found.name.length)}
      </span>,
    );
    rest = rest.slice(found.at + 1 + found.name.length);
  }
  if (rest) out.push(rest);
  return out;
}
