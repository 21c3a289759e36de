import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Markdown } from '@/components/markdown';
import { inlineText, parseMarkdown, type Inline } from '.';

/** The inline content of a source that is one paragraph. */
const paragraph = (source: string, mentions?: string[]): Inline[] => {
  const blocks = parseMarkdown(source, { mentions });
  expect(blocks).toHaveLength(1);
  expect(blocks[0]!.t).toBe('p');
  return (blocks[0] as { c: Inline[] }).c;
};

describe('markdown reader', () => {
  it('keeps only safe link targets and never produces markup', () => {
    expect(paragraph('[click](javascript:alert(1)) and [site](https://example.test)')).toEqual([
      { t: 'text', v: 'click' },
      { t: 'text', v: ' and ' },
      { t: 'link', href: 'https://example.test', c: [{ t: 'text', v: 'site' }] },
    ]);
    expect(paragraph('[a](JavaScript:alert(1)) [b](data:text/html,x) [c](mailto:giulia@example.test)')).toEqual([
      { t: 'text', v: 'a' },
      { t: 'text', v: ' ' },
      { t: 'text', v: 'b' },
      { t: 'text', v: ' ' },
      { t: 'link', href: 'mailto:giulia@example.test', c: [{ t: 'text', v: 'c' }] },
    ]);
    expect(paragraph('javascript:alert(1)')).toEqual([{ t: 'text', v: 'javascript:alert(1)' }]);
    expect(parseMarkdown('<script>alert(1)</script>')).toEqual([{ t: 'p', c: [{ t: 'text', v: '<script>alert(1)</script>' }] }]);
  });

  it('reads headings, lists, code, quotes and tables', () => {
    const blocks = parseMarkdown('# Title\n\n- one\n- **two**\n\n```ts\nconst x = 1;\n```\n\n> quoted\n\n| a | b |\n|---|---|\n| 1 | 2 |');
    expect(blocks.map((b) => b.t)).toEqual(['heading', 'list', 'code', 'quote', 'table']);
    expect(blocks[1]).toEqual({ t: 'list', ordered: false, start: 1, items: [[{ t: 'text', v: 'one' }], [{ t: 'strong', c: [{ t: 'text', v: 'two' }] }]] });
    expect(blocks[2]).toEqual({ t: 'code', lang: 'ts', v: 'const x = 1;' });
    expect(blocks[4]).toEqual({ t: 'table', head: [[{ t: 'text', v: 'a' }], [{ t: 'text', v: 'b' }]], rows: [[[{ t: 'text', v: '1' }], [{ t: 'text', v: '2' }]]] });
  });

  it('strips closing hashes from a heading but keeps a hash that is part of a word', () => {
    expect(parseMarkdown('## Numbers ##')).toEqual([{ t: 'heading', level: 2, c: [{ t: 'text', v: 'Numbers' }] }]);
    expect(parseMarkdown('# Learn C#')).toEqual([{ t: 'heading', level: 1, c: [{ t: 'text', v: 'Learn C#' }] }]);
  });

  it('reads emphasis, strikethrough and code spans, with nothing read inside code', () => {
    expect(paragraph('**bold** *it* _it_ ~~gone~~ `a *b* @Nova`', ['Nova'])).toEqual([
      { t: 'strong', c: [{ t: 'text', v: 'bold' }] },
      { t: 'text', v: ' ' },
      { t: 'em', c: [{ t: 'text', v: 'it' }] },
      { t: 'text', v: ' ' },
      { t: 'em', c: [{ t: 'text', v: 'it' }] },
      { t: 'text', v: ' ' },
      { t: 'strike', c: [{ t: 'text', v: 'gone' }] },
      { t: 'text', v: ' ' },
      { t: 'code', v: 'a *b* @Nova' },
    ]);
    expect(paragraph('snake_case_name')).toEqual([{ t: 'text', v: 'snake_case_name' }]);
  });

  it('keeps the line ends inside a paragraph, a quote and a list item', () => {
    expect(paragraph('first line\nsecond **line\nthird**')).toEqual([
      { t: 'text', v: 'first line' },
      { t: 'br' },
      { t: 'text', v: 'second ' },
      { t: 'strong', c: [{ t: 'text', v: 'line' }, { t: 'br' }, { t: 'text', v: 'third' }] },
    ]);
    expect(parseMarkdown('> one\n> two')).toEqual([{ t: 'quote', c: [{ t: 'text', v: 'one' }, { t: 'br' }, { t: 'text', v: 'two' }] }]);
    expect(parseMarkdown('- item\n  goes on')).toEqual([{ t: 'list', ordered: false, start: 1, items: [[{ t: 'text', v: 'item' }, { t: 'br' }, { t: 'text', v: 'goes on' }]] }]);
    expect(inlineText(paragraph('one\ntwo'))).toBe('one\ntwo');
  });

  it('reads • bullets, numbered lists from their first number, and a list right under a paragraph', () => {
    expect(parseMarkdown('Two things:\n• milk\n• eggs\n\n3. third\n4. fourth')).toEqual([
      { t: 'p', c: [{ t: 'text', v: 'Two things:' }] },
      { t: 'list', ordered: false, start: 1, items: [[{ t: 'text', v: 'milk' }], [{ t: 'text', v: 'eggs' }]] },
      { t: 'list', ordered: true, start: 3, items: [[{ t: 'text', v: 'third' }], [{ t: 'text', v: 'fourth' }]] },
    ]);
  });

  it('links bare URLs without the punctuation after them, and never inside a word or a link', () => {
    expect(paragraph('See https://example.com/a_b?x=1, or (https://example.org).')).toEqual([
      { t: 'text', v: 'See ' },
      { t: 'link', href: 'https://example.com/a_b?x=1', c: [{ t: 'text', v: 'https://example.com/a_b?x=1' }] },
      { t: 'text', v: ', or (' },
      { t: 'link', href: 'https://example.org', c: [{ t: 'text', v: 'https://example.org' }] },
      { t: 'text', v: ').' },
    ]);
    expect(paragraph('xhttps://example.com')).toEqual([{ t: 'text', v: 'xhttps://example.com' }]);
    expect(paragraph('[https://example.com](https://example.com)')).toEqual([
      { t: 'link', href: 'https://example.com', c: [{ t: 'text', v: 'https://example.com' }] },
    ]);
  });

  it('marks mentions of the given names only: longest name first, whole names, any case, not in link labels', () => {
    expect(paragraph('@Nova Prime, @nova and @Novak: **@Nova** [@Nova](https://example.com)', ['Nova', 'Nova Prime', ''])).toEqual([
      { t: 'mention', v: '@Nova Prime' },
      { t: 'text', v: ', ' },
      { t: 'mention', v: '@nova' },
      { t: 'text', v: ' and @Novak: ' },
      { t: 'strong', c: [{ t: 'mention', v: '@Nova' }] },
      { t: 'text', v: ' ' },
      { t: 'link', href: 'https://example.com', c: [{ t: 'text', v: '@Nova' }] },
    ]);
    expect(paragraph('@Nova')).toEqual([{ t: 'text', v: '@Nova' }]);
    expect(paragraph('@ alone', [''])).toEqual([{ t: 'text', v: '@ alone' }]);
  });
});

describe('Markdown component', () => {
  const html = (source: string, props: { variant?: 'document' | 'chat'; mentions?: string[] } = {}) => renderToStaticMarkup(createElement(Markdown, { source, ...props }));

  it('opens links in a new tab without access to the page, and shows an unsafe link as its text', () => {
    expect(html('[site](https://example.test) [click](javascript:alert(1))')).toBe(
      '<div class="flex flex-col gap-3 text-[0.9375rem] leading-relaxed break-words"><p><a href="https://example.test" target="_blank" rel="noopener noreferrer nofollow" class="font-medium text-accent-ink underline underline-offset-2">site</a> click</p></div>',
    );
  });

  it('in chat breaks lines, shows headings as bold lines and highlights mentions; a document does none of that', () => {
    const source = '# Plan\nHi @Nova\nsee you';
    expect(html(source, { variant: 'chat', mentions: ['Nova'] })).toBe(
      '<div class="flex flex-col gap-2 break-words [overflow-wrap:anywhere]"><p><strong>Plan</strong></p><p>Hi <span class="rounded bg-accent-soft px-0.5 font-semibold text-accent-ink">@Nova</span><br/>see you</p></div>',
    );
    expect(html(source)).toBe(
      '<div class="flex flex-col gap-3 text-[0.9375rem] leading-relaxed break-words"><h2 class="text-2xl font-bold mt-2 text-balance">Plan</h2><p>Hi @Nova see you</p></div>',
    );
  });
});
