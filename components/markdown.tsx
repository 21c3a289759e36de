import type { ReactNode } from 'react';
import { parseMarkdown, type Inline, type MdBlock } from '@/lib/markdown';

type Variant = 'document' | 'chat';

/**
 * Markdown as React elements (never HTML strings): a text cannot inject markup. Links open in a new
 * tab without access to this page. `document` is the look of artifacts and cards; `chat` is a
 * message's: tighter, a new line wherever the writer pressed Enter, headings as bold lines (a
 * message has no outline), and `mentions` (the names the server recognised) highlighted.
 */
export function Markdown({ source, variant = 'document', mentions }: { source: string; variant?: Variant; mentions?: string[] }) {
  return <div className={LOOKS[variant].root}>{parseMarkdown(source, { mentions }).map((block, i) => renderBlock(block, i, variant))}</div>;
}

const LOOKS = {
  document: {
    root: 'flex flex-col gap-3 text-[0.9375rem] leading-relaxed break-words',
    code: 'rounded bg-subtle px-1 py-0.5 font-mono text-[0.85em]',
    quote: 'border-l-4 border-line-strong/40 pl-4 text-muted',
    ul: 'list-disc pl-6',
    ol: 'list-decimal pl-6',
    pre: 'overflow-x-auto rounded-xl bg-subtle p-3 font-mono text-sm',
  },
  chat: {
    root: 'flex flex-col gap-2 break-words [overflow-wrap:anywhere]',
    code: 'rounded bg-subtle px-1 py-0.5 font-mono text-[0.875em]',
    quote: 'border-l-4 border-line-strong/40 pl-3 text-muted',
    ul: 'list-disc pl-5',
    ol: 'list-decimal pl-5',
    pre: 'overflow-x-auto rounded-lg bg-subtle p-3 font-mono text-sm',
  },
} satisfies Record<Variant, Record<string, string>>;

function renderInline(nodes: Inline[], variant: Variant): ReactNode[] {
  return nodes.map((node, i) => {
    switch (node.t) {
      case 'text':
        return node.v;
      case 'br':
        return variant === 'chat' ? <br key={i} /> : ' ';
      case 'mention':
        return (
          <span key={i} className="rounded bg-accent-soft px-0.5 font-semibold text-accent-ink">
            {node.v}
          </span>
        );
      case 'code':
        return (
          <code key={i} className={LOOKS[variant].code}>
            {node.v}
          </code>
        );
      case 'strong':
        return <strong key={i}>{renderInline(node.c, variant)}</strong>;
      case 'em':
        return <em key={i}>{renderInline(node.c, variant)}</em>;
      case 'strike':
        return <s key={i}>{renderInline(node.c, variant)}</s>;
      case 'link':
        return (
          <a key={i} href={node.href} target="_blank" rel="noopener noreferrer nofollow" className="font-medium text-accent-ink underline underline-offset-2">
            {renderInline(node.c, variant)}
          </a>
        );
    }
  });
}

const HEADINGS = ['text-2xl font-bold', 'text-xl font-bold', 'text-lg font-semibold', 'text-base font-semibold', 'text-base font-semibold', 'text-base font-semibold'];

function renderBlock(block: MdBlock, i: number, variant: Variant): ReactNode {
  const look = LOOKS[variant];
  switch (block.t) {
    case 'heading': {
      if (variant === 'chat')
        return (
          <p key={i}>
            <strong>{renderInline(block.c, variant)}</strong>
          </p>
        );
      // Document headings sit below the page's own h1.
      const Tag = (['h2', 'h3', 'h4', 'h5', 'h6', 'h6'] as const)[block.level - 1]!;
      return (
        <Tag key={i} className={`${HEADINGS[block.level - 1]} mt-2 text-balance`}>
          {renderInline(block.c, variant)}
        </Tag>
      );
    }
    case 'p':
      return <p key={i}>{renderInline(block.c, variant)}</p>;
    case 'quote':
      return (
        <blockquote key={i} className={look.quote}>
          {renderInline(block.c, variant)}
        </blockquote>
      );
    case 'list': {
      const items = block.items.map((item, n) => <li key={n}>{renderInline(item, variant)}</li>);
      return block.ordered ? (
        <ol key={i} start={block.start} className={look.ol}>
          {items}
        </ol>
      ) : (
        <ul key={i} className={look.ul}>
          {items}
        </ul>
      );
    }
    case 'code':
      return (
        <pre key={i} className={look.pre}>
          <code>{block.v}</code>
        </pre>
      );
    case 'hr':
      return <hr key={i} className="border-line" />;
    case 'table':
      return (
        <div key={i} className="overflow-x-auto">
          <table className="w-full border-collapse text-sm">
            <thead>
              <tr>
                {block.head.map((cell, n) => (
                  <th key={n} scope="col" className="border-b border-line-strong/50 px-2 py-1.5 text-left font-semibold">
                    {renderInline(cell, variant)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {block.rows.map((row, r) => (
                <tr key={r}>
                  {row.map((cell, n) => (
                    <td key={n} className="border-b border-line px-2 py-1.5 align-top">
                      {renderInline(cell, variant)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
  }
}
