import type { ReactNode } from 'react';
import { parseMarkdown, type Inline, type MdBlock } from '@/lib/artifacts/markdown';

/**
 * Markdown as React elements (never HTML strings): a document's text cannot inject markup. Links
 * open in a new tab without access to this page.
 */
export function Markdown({ source, className = '' }: { source: string; className?: string }) {
  return <div className={`flex flex-col gap-3 text-[0.9375rem] leading-relaxed break-words ${className}`}>{parseMarkdown(source).map(renderBlock)}</div>;
}

function renderInline(nodes: Inline[]): ReactNode[] {
  return nodes.map((node, i) => {
    switch (node.t) {
      case 'text':
        return node.v;
      case 'code':
        return (
          <code key={i} className="rounded bg-subtle px-1 py-0.5 font-mono text-[0.85em]">
            {node.v}
          </code>
        );
      case 'strong':
        return <strong key={i}>{renderInline(node.c)}</strong>;
      case 'em':
        return <em key={i}>{renderInline(node.c)}</em>;
      case 'link':
        return (
          <a key={i} href={node.href} target="_blank" rel="noopener noreferrer nofollow" className="font-medium text-accent-ink underline underline-offset-2">
            {renderInline(node.c)}
          </a>
        );
    }
  });
}

const HEADINGS = ['text-2xl font-bold', 'text-xl font-bold', 'text-lg font-semibold', 'text-base font-semibold', 'text-base font-semibold', 'text-base font-semibold'];

function renderBlock(block: MdBlock, i: number): ReactNode {
  switch (block.t) {
    case 'heading': {
      // Document headings sit below the page's own h1.
      const Tag = (['h2', 'h3', 'h4', 'h5', 'h6', 'h6'] as const)[block.level - 1]!;
      return (
        <Tag key={i} className={`${HEADINGS[block.level - 1]} mt-2 text-balance`}>
          {renderInline(block.c)}
        </Tag>
      );
    }
    case 'p':
      return <p key={i}>{renderInline(block.c)}</p>;
    case 'quote':
      return (
        <blockquote key={i} className="border-l-4 border-line-strong/40 pl-4 text-muted">
          {renderInline(block.c)}
        </blockquote>
      );
    case 'list': {
      const items = block.items.map((item, n) => <li key={n}>{renderInline(item)}</li>);
      return block.ordered ? (
        <ol key={i} start={block.start} className="list-decimal pl-6">
          {items}
        </ol>
      ) : (
        <ul key={i} className="list-disc pl-6">
          {items}
        </ul>
      );
    }
    case 'code':
      return (
        <pre key={i} className="overflow-x-auto rounded-xl bg-subtle p-3 font-mono text-sm">
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
                    {renderInline(cell)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {block.rows.map((row, r) => (
                <tr key={r}>
                  {row.map((cell, n) => (
                    <td key={n} className="border-b border-line px-2 py-1.5 align-top">
                      {renderInline(cell)}
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
