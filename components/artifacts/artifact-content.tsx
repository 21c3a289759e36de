'use client';

import { parseCsv, HTML_SANDBOX, sandboxedSrcdoc } from '@/lib/artifacts/client';
import type { ArtifactKind } from '@/lib/artifacts';
import { useI18n } from '@/lib/i18n/client';
import { Markdown } from '@/components/markdown';

/** One version's content, drawn for its kind. */
export function ArtifactContent({ kind, title, language, content }: { kind: ArtifactKind; title: string; language: string | null; content: string }) {
  const { t } = useI18n();
  switch (kind) {
    case 'document':
      return <Markdown source={content} />;
    case 'code':
      return (
        <pre className="overflow-x-auto font-mono text-[0.8125rem] leading-relaxed" aria-label={language ?? undefined}>
          <code>
            {content.split('\n').map((line, n) => (
              <span key={n} className="grid grid-cols-[2.5rem_minmax(0,1fr)]">
                <span aria-hidden className="pr-3 text-right text-muted select-none">
                  {n + 1}
                </span>
                <span>{line || ' '}</span>
              </span>
            ))}
          </code>
        </pre>
      );
    case 'html':
      // No allow-same-origin: the page's scripts run in an opaque origin with no way into the app;
      // its own CSP (first in its head) keeps it off the network.
      return (
        <div className="flex flex-col gap-2">
          <iframe title={t('artifacts.frameTitle', { title })} sandbox={HTML_SANDBOX} srcDoc={sandboxedSrcdoc(content)} referrerPolicy="no-referrer" className="h-[28rem] w-full rounded-xl border border-line bg-white" />
          <p className="text-sm text-muted">{t('artifacts.frameNote')}</p>
        </div>
      );
    case 'table': {
      const [head, ...rows] = parseCsv(content);
      if (!head) return <p className="text-muted">{t('artifacts.noRows')}</p>;
      return (
        <div className="overflow-x-auto">
          <table className="w-full border-collapse text-sm">
            <thead>
              <tr>
                {head.map((cell, n) => (
                  <th key={n} scope="col" className="border-b border-line-strong/50 px-2 py-1.5 text-left font-semibold whitespace-nowrap">
                    {cell}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row, r) => (
                <tr key={r} className="even:bg-subtle/60">
                  {head.map((_, n) => (
                    <td key={n} className="border-b border-line px-2 py-1.5 align-top">
                      {row[n] ?? ''}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
    }
    case 'image':
      // eslint-disable-next-line @next/next/no-img-element
      return <img src={content} alt={title} referrerPolicy="no-referrer" className="mx-auto max-h-[32rem] rounded-xl object-contain" />;
  }
}
