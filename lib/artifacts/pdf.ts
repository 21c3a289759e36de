import { inlineText, parseMarkdown, type MdBlock } from '@/lib/markdown';

/**
 * A minimal PDF writer for documents and code: A4 pages, the standard Helvetica and Courier fonts
 * (every PDF reader has them, so nothing is embedded), text wrapped to the page, headings, lists,
 * quotes, tables as aligned rows and code in monospace. Western European text (Italian included) is
 * written in WinAnsi; characters outside it print as "?". Chosen over a browser or PDF library:
 * no new dependency, fast, and enough for a text document.
 */

const PAGE = { width: 595.28, height: 841.89, margin: 56 };

// Helvetica advance widths (1/1000 em) for ASCII 32–126, from the font's standard metrics.
const HELVETICA = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584,
  584, 556, 1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278,
  278, 278, 469, 556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500,
  500, 334, 260, 334, 584,
];

type Font = 'F1' | 'F2' | 'F3';

function charWidth(ch: string, font: Font): number {
  if (font === 'F3') return 600;
  const base = ch.normalize('NFD').charCodeAt(0);
  const w = base >= 32 && base <= 126 ? HELVETICA[base - 32]! : 556;
  // Bold is a little wider; measuring it so keeps wrapped lines inside the margin.
  return font === 'F2' ? w * 1.08 : w;
}

const widthOf = (text: string, font: Font, size: number) => ([...text].reduce((sum, ch) => sum + charWidth(ch, font), 0) * size) / 1000;

/** Breaks text into lines no wider than `max` points (long words are cut). */
function wrap(text: string, font: Font, size: number, max: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (widthOf(candidate, font, size) <= max) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    line = word;
    while (widthOf(line, font, size) > max) {
      let cut = line.length - 1;
      while (cut > 1 && widthOf(line.slice(0, cut), font, size) > max) cut--;
      lines.push(line.slice(0, cut));
      line = line.slice(cut);
    }
  }
  if (line) lines.push(line);
  return lines.length ? lines : [''];
}

// Unicode → Windows-1252 for the characters outside Latin-1 that documents use.
const CP1252: Record<string, number> = {
  '€': 0x80, '‚': 0x82, 'ƒ': 0x83, '„': 0x84, '…': 0x85, '†': 0x86, '‡': 0x87, 'ˆ': 0x88, '‰': 0x89, 'Š': 0x8a, '‹': 0x8b, 'Œ': 0x8c, 'Ž': 0x8e,
  '‘': 0x91, '’': 0x92, '“': 0x93, '”': 0x94, '•': 0x95, '–': 0x96, '—': 0x97, '˜': 0x98, '™': 0x99, 'š': 0x9a, '›': 0x9b, 'œ': 0x9c, 'ž': 0x9e, 'Ÿ': 0x9f,
};

/** A PDF string literal in WinAnsi bytes (as a latin1 JS string). */
function pdfString(text: string): string {
  let out = '(';
  for (const ch of text) {
    const code = ch.charCodeAt(0);
    const byte = ch.length === 1 && ((code >= 32 && code <= 126) || (code >= 0xa0 && code <= 0xff)) ? code : CP1252[ch] ?? 63;
    out += byte === 40 || byte === 41 || byte === 92 ? `\\${String.fromCharCode(byte)}` : String.fromCharCode(byte);
  }
  return `${out})`;
}

interface Line {
  text: string;
  font: Font;
  size: number;
  indent: number;
  /** Space before this line. */
  gap: number;
}

function layout(blocks: MdBlock[]): Line[] {
  const lines: Line[] = [];
  const width = PAGE.width - 2 * PAGE.margin;
  const add = (text: string, font: Font, size: number, indent: number, gapBefore: number) => {
    wrap(text, font, size, width - indent).forEach((t, n) => lines.push({ text: t, font, size, indent, gap: n === 0 ? gapBefore : 0 }));
  };
  for (const block of blocks) {
    switch (block.t) {
      case 'heading': {
        const size = [20, 16, 13.5, 12, 11, 11][block.level - 1]!;
        add(inlineText(block.c), 'F2', size, 0, size * 0.9);
        break;
      }
      case 'p':
        add(inlineText(block.c), 'F1', 11, 0, 8);
        break;
      case 'quote':
        add(inlineText(block.c), 'F1', 11, 18, 8);
        break;
      case 'list':
        block.items.forEach((item, n) => {
          const marker = block.ordered ? `${block.start + n}.` : '•';
          const [first, ...rest] = wrap(inlineText(item), 'F1', 11, width - 18);
          lines.push({ text: `${marker} ${first}`, font: 'F1', size: 11, indent: 4, gap: n === 0 ? 8 : 2 });
          for (const t of rest) lines.push({ text: t, font: 'F1', size: 11, indent: 18, gap: 0 });
        });
        break;
      case 'code':
        block.v.split('\n').forEach((raw, n) => {
          wrap(raw.replace(/\t/g, '  ') || ' ', 'F3', 9.5, width - 8).forEach((t, m) =>
            lines.push({ text: t, font: 'F3', size: 9.5, indent: 8, gap: n === 0 && m === 0 ? 8 : 0 }),
          );
        });
        break;
      case 'table': {
        const rows = [block.head, ...block.rows].map((r) => r.map(inlineText).join('   |   '));
        rows.forEach((r, n) => add(r, n === 0 ? 'F2' : 'F1', 10, 0, n === 0 ? 8 : 2));
        break;
      }
      case 'hr':
        lines.push({ text: '', font: 'F1', size: 11, indent: 0, gap: 8 });
        break;
    }
  }
  return lines;
}

/** Renders lines onto pages: each page's content stream. */
function paginate(lines: Line[]): string[] {
  const pages: string[] = [];
  let ops: string[] = [];
  let y = PAGE.height - PAGE.margin;
  const flush = () => {
    pages.push(ops.join('\n'));
    ops = [];
    y = PAGE.height - PAGE.margin;
  };
  for (const line of lines) {
    const advance = line.gap + line.size * 1.35;
    if (y - advance < PAGE.margin && ops.length) flush();
    y -= ops.length ? advance : line.size * 1.35;
    if (line.text) ops.push(`BT /${line.font} ${line.size} Tf ${(PAGE.margin + line.indent).toFixed(2)} ${y.toFixed(2)} Td ${pdfString(line.text)} Tj ET`);
    else ops.push(`${PAGE.margin} ${(y + line.size * 0.5).toFixed(2)} m ${(PAGE.width - PAGE.margin).toFixed(2)} ${(y + line.size * 0.5).toFixed(2)} l 0.8 G S`);
  }
  if (ops.length || pages.length === 0) flush();
  return pages;
}

/** Assembles the file: catalog, page tree, the three standard fonts, pages and the cross-reference table. */
function assemble(title: string, streams: string[]): Uint8Array {
  const objects: string[] = [];
  const fontIds = [3, 4, 5];
  const pageIds = streams.map((_, n) => 6 + n * 2);
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pageIds.length} >>`;
  ['Helvetica', 'Helvetica-Bold', 'Courier'].forEach((name, n) => {
    objects[fontIds[n]!] = `<< /Type /Font /Subtype /Type1 /BaseFont /${name} /Encoding /WinAnsiEncoding >>`;
  });
  streams.forEach((stream, n) => {
    objects[pageIds[n]!] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE.width} ${PAGE.height}] /Resources << /Font << /F1 3 0 R /F2 4 0 R /F3 5 0 R >> >> /Contents ${pageIds[n]! + 1} 0 R >>`;
    objects[pageIds[n]! + 1] = `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`;
  });
  const infoId = objects.length;
  objects[infoId] = `<< /Title ${pdfString(title)} /Producer (Multiverbe) >>`;

  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = out.length;
    out += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xref = out.length;
  out += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++) out += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length} /Root 1 0 R /Info ${infoId} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  // Every character above is one byte (WinAnsi strings were built as latin1).
  return new Uint8Array(Buffer.from(out, 'latin1'));
}

/** A PDF of a markdown document (or, with `code`, of source code as is), titled `title`. */
export function renderPdf(title: string, source: string, options: { code?: boolean } = {}): Uint8Array {
  const blocks: MdBlock[] = options.code ? [{ t: 'heading', level: 1, c: [{ t: 'text', v: title }] }, { t: 'code', lang: '', v: source }] : parseMarkdown(source);
  return assemble(title, paginate(layout(blocks)));
}
