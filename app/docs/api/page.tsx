import type { Metadata } from 'next';
import Link from 'next/link';
import { Card } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { config } from '@/lib/config';
import { getI18n } from '@/lib/i18n/server';
import { mcpAddress } from '@/lib/mcp';
import { openApiDocument } from '@/lib/topics';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getI18n()).t('topics.docs.title') };
}

// The subset of OpenAPI this page reads; the document itself is lib/topics/openapi.ts.
type Schema = { $ref?: string; type?: string | string[]; anyOf?: Schema[]; enum?: unknown[]; const?: unknown; description?: string; properties?: Record<string, Schema>; required?: string[]; items?: Schema; pattern?: string; default?: unknown; format?: string };
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema: Schema;
}
interface Operation {
  tags: string[];
  summary: string;
  description?: string;
  security?: unknown[];
  parameters?: Parameter[];
  requestBody?: { content: { 'application/json': { schema: Schema; example?: unknown } } };
  responses: Record<string, { description: string; content?: { 'application/json': { example?: unknown } } }>;
}
interface Document {
  info: { description: string };
  tags: Array<{ name: string; description: string }>;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

const METHOD_TONES: Record<string, string> = {
  get: 'bg-subtle text-ink',
  post: 'bg-accent-soft text-accent-ink',
  put: 'bg-accent-soft text-accent-ink',
  delete: 'bg-danger-soft text-ink',
};

/** The topic API, readable: rendered from the same OpenAPI document served at /api/openapi.json. Public. */
export default async function ApiDocsPage() {
  const { t } = await getI18n();
  const doc = openApiDocument(config().APP_URL) as unknown as Document;
  const resolve = (schema: Schema): Schema => (schema.$ref ? doc.components.schemas[schema.$ref.split('/').at(-1)!]! : schema);

  return (
    <main id="main" className="mx-auto w-full max-w-3xl px-4 py-8 sm:px-6 lg:py-12">
      <PageHeader title={t('topics.docs.title')} description={t('topics.docs.lead')} />
      <Card className="mb-8 flex flex-col gap-2 text-[0.9375rem] text-pretty">
        <p>{t('topics.docs.auth')}</p>
        <p>{t('topics.docs.envelope')}</p>
        <p>{prose(t('topics.docs.mcp', { url: `\`${mcpAddress()}\`` }))}</p>
        <p>
          <Link href="/api/openapi.json" className="font-semibold text-accent-ink underline">
            {t('topics.docs.openApi')}
          </Link>
        </p>
      </Card>

      {doc.tags.map((tag) => (
        <section key={tag.name} aria-labelledby={`tag-${tag.name}`} className="mb-10">
          <h2 id={`tag-${tag.name}`} className="text-xl font-bold">
            {tag.name}
          </h2>
          <p className="mb-4 text-[0.9375rem] text-muted">{prose(tag.description)}</p>
          <div className="flex flex-col gap-4">
            {Object.entries(doc.paths).flatMap(([path, methods]) =>
              Object.entries(methods)
                .filter(([, op]) => op.tags.includes(tag.name))
                .map(([method, op]) => (
                  <Card key={`${method} ${path}`}>
                    <h3 className="flex flex-wrap items-center gap-2">
                      <span className={`rounded-md px-2 py-0.5 font-mono text-sm font-bold uppercase ${METHOD_TONES[method]}`}>{method}</span>
                      <code className="font-mono text-[0.9375rem] font-semibold break-all">{path}</code>
                    </h3>
                    <p className="mt-2 font-semibold">{op.summary}</p>
                    {op.description && <p className="mt-1 text-[0.9375rem] text-pretty text-muted">{prose(op.description)}</p>}
                    {op.security?.length === 0 && <p className="mt-1 text-sm text-muted">{t('topics.docs.noKey')}</p>}
                    {op.parameters && (
                      <Fields title={t('topics.docs.parameters')} rows={op.parameters.map((p) => ({ name: `${p.name} (${p.in})`, type: typeOf(p.schema), required: Boolean(p.required), description: p.description }))} />
                    )}
                    {op.requestBody && <BodyFields title={t('topics.docs.body')} schema={resolve(op.requestBody.content['application/json'].schema)} />}
                    <h4 className="mt-4 text-sm font-semibold">{t('topics.docs.responses')}</h4>
                    <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                      {Object.entries(op.responses).map(([status, response]) => (
                        <div key={status} className="contents">
                          <dt className="font-mono font-semibold">{status}</dt>
                          <dd className="text-pretty text-muted">{prose(response.description)}</dd>
                        </div>
                      ))}
                    </dl>
                    <Example title={t('topics.docs.example')} value={op.requestBody?.content['application/json'].example ?? successExample(op)} />
                  </Card>
                )),
            )}
          </div>
        </section>
      ))}
    </main>
  );
}

/** The document's descriptions mark code with backticks, as OpenAPI's CommonMark does. */
function prose(text: string) {
  return text.split('`').map((part, i) => (i % 2 ? <code key={i} className="font-mono text-[0.875em] text-ink">{part}</code> : part));
}

function successExample(op: Operation): unknown {
  return Object.values(op.responses).find((r) => r.content?.['application/json'].example)?.content?.['application/json'].example;
}

function typeOf(schema: Schema): string {
  if (schema.$ref) return schema.$ref.split('/').at(-1)!;
  if (schema.enum) return schema.enum.join(' | ');
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.anyOf) return schema.anyOf.map(typeOf).join(' | ');
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : (schema.type ?? 'any');
  return schema.items ? `${typeOf(schema.items)}[]` : type;
}

function BodyFields({ title, schema }: { title: string; schema: Schema }) {
  const rows = Object.entries(schema.properties ?? {}).map(([name, p]) => ({
    name,
    type: typeOf(p),
    required: Boolean(schema.required?.includes(name)),
    description: [p.description, p.pattern ? `/${p.pattern}/` : '', p.default !== undefined ? `default ${JSON.stringify(p.default)}` : ''].filter(Boolean).join(' · '),
  }));
  return <Fields title={title} rows={rows} />;
}

function Fields({ title, rows }: { title: string; rows: Array<{ name: string; type: string; required: boolean; description?: string }> }) {
  return (
    <>
      <h4 className="mt-4 text-sm font-semibold">{title}</h4>
      <ul className="mt-1 flex flex-col gap-1 text-sm">
        {rows.map((row) => (
          <li key={row.name}>
            <code className="font-mono font-semibold">{row.name}</code> <span className="font-mono text-muted">{row.type}</span>
            {row.required && <span className="text-danger"> *<span className="sr-only"> (required)</span></span>}
            {row.description && <span className="text-muted"> — {prose(row.description)}</span>}
          </li>
        ))}
      </ul>
    </>
  );
}

function Example({ title, value }: { title: string; value: unknown }) {
  if (value === undefined) return null;
  return (
    <details className="mt-4">
      <summary className="min-h-11 cursor-pointer py-2 text-sm font-semibold">{title}</summary>
      <pre className="overflow-x-auto rounded-xl bg-subtle p-3 text-xs">{JSON.stringify(value, null, 2)}</pre>
    </details>
  );
}
