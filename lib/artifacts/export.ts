import { ApiError } from '@/lib/api';
import type { Actor } from '@/lib/chat';
import { asciiSlug } from '@/lib/text';
import { getArtifact, getVersion } from './artifacts';
import { csvToMarkdown } from './csv';
import { renderPdf } from './pdf';
import type { ArtifactKind } from './schemas';

export interface ExportedFile {
  filename: string;
  contentType: string;
  body: Uint8Array;
}

const EXTENSIONS: Record<string, string> = {
  bash: 'sh', c: 'c', cpp: 'cpp', 'c++': 'cpp', csharp: 'cs', 'c#': 'cs', css: 'css', go: 'go', html: 'html', java: 'java', javascript: 'js',
  js: 'js', json: 'json', jsx: 'jsx', kotlin: 'kt', markdown: 'md', php: 'php', python: 'py', py: 'py', ruby: 'rb', rust: 'rs', shell: 'sh',
  sh: 'sh', sql: 'sql', swift: 'swift', ts: 'ts', tsx: 'tsx', typescript: 'ts', yaml: 'yaml', yml: 'yml', xml: 'xml',
};

const IMAGE_TYPES: Record<string, string> = { png: 'png', jpeg: 'jpg', gif: 'gif', webp: 'webp' };

const slug = (title: string) => asciiSlug(title, { separator: '-', maxLength: 60, fallback: 'artifact' });

/**
 * A version as a file: its own format (Markdown, source with the language's extension, HTML, CSV,
 * the image's bytes), or a PDF for documents, code and tables. Access as for reading it.
 */
export async function exportArtifact(actor: Actor, id: string, options: { version?: number; format: 'file' | 'pdf' }): Promise<ExportedFile> {
  const artifact = await getArtifact(actor, id);
  const version = options.version && options.version !== artifact.currentVersion ? await getVersion(actor, id, options.version) : artifact.current;
  const base = `${slug(version.title)}-v${version.version}`;
  const kind: ArtifactKind = artifact.kind;
  const text = (body: string) => new TextEncoder().encode(body);

  if (options.format === 'pdf') {
    if (kind === 'html' || kind === 'image') throw new ApiError('bad_request', 'api.artifacts.pdfKinds');
    const source = kind === 'table' ? csvToMarkdown(version.content) : version.content;
    return { filename: `${base}.pdf`, contentType: 'application/pdf', body: renderPdf(version.title, source, { code: kind === 'code' }) };
  }
  switch (kind) {
    case 'document':
      return { filename: `${base}.md`, contentType: 'text/markdown; charset=utf-8', body: text(version.content) };
    case 'code':
      return { filename: `${base}.${EXTENSIONS[version.language ?? ''] ?? 'txt'}`, contentType: 'text/plain; charset=utf-8', body: text(version.content) };
    case 'html':
      return { filename: `${base}.html`, contentType: 'text/html; charset=utf-8', body: text(version.content) };
    case 'table':
      return { filename: `${base}.csv`, contentType: 'text/csv; charset=utf-8', body: text(version.content) };
    case 'image': {
      const data = version.content.match(/^data:image\/(png|jpeg|gif|webp);base64,(.+)$/);
      if (!data) throw new ApiError('bad_request', 'api.artifacts.imageIsLink');
      return { filename: `${base}.${IMAGE_TYPES[data[1]!]}`, contentType: `image/${data[1]}`, body: new Uint8Array(Buffer.from(data[2]!, 'base64')) };
    }
  }
}

/**
 * The download response. `attachment` and `nosniff` keep a browser from rendering it in the app's
 * origin, and the sandbox policy covers one that does anyway (an HTML file opened directly).
 */
export function fileResponse(file: ExportedFile): Response {
  return new Response(file.body as BodyInit, {
    headers: {
      'content-type': file.contentType,
      'content-disposition': `attachment; filename="${file.filename}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
      'x-content-type-options': 'nosniff',
      'content-security-policy': "sandbox; default-src 'none'",
      'cache-control': 'no-store',
    },
  });
}
