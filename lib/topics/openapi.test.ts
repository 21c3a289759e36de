import { beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { GET as openApiRoute } from '@/app/api/openapi.json/route';
import { asService } from '@/lib/db';
import { createWorkspace } from '@/lib/workspaces';
import { setupTestDatabase } from '@/test/db';
import { createUser } from '@/test/fixtures';
import { createApiKey } from './auth';
import { jsonSchemaOf } from './openapi';
import { callRoute, type RouteHandler } from './testing';

/**
 * The document against the routes: every operation of /api/openapi.json is called with valid input, and
 * must answer its documented success status with a body that fits the documented schema; the zod
 * schemas the route parsed its body and query with (recorded as it runs) must be the ones the document
 * describes. A route that parses with another schema, answers another shape or is missing from the
 * document fails here.
 */

const parsed = vi.hoisted(() => ({ bodies: [] as z.ZodType[], queries: [] as z.ZodType[] }));
vi.mock('@/lib/topics', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@/lib/topics')>();
  return { ...actual, parseBody: (req: Request, schema: z.ZodType) => (parsed.bodies.push(schema), actual.parseBody(req, schema)) };
});
vi.mock('@/lib/api', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@/lib/api')>();
  return { ...actual, parseQuery: (req: Request, schema: z.ZodType) => (parsed.queries.push(schema), actual.parseQuery(req, schema)) };
});

process.env.LOG_LEVEL = 'silent';
setupTestDatabase();

type Schema = Record<string, unknown>;
interface Operation {
  parameters?: { name: string; in: string; required: boolean; schema: Schema }[];
  requestBody?: { content: { 'application/json': { schema: Schema; example?: unknown } } };
  responses: Record<string, { content: { 'application/json': { schema: Schema; example?: unknown } } }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

/** The route files of the paths the document describes, by the document's path (`[id]` is `{id}`). */
const routeFiles = import.meta.glob<Record<string, RouteHandler<{ id: string }>>>('../../app/api/{topics,requests,sessions,health}/**/route.ts', { eager: true });
const routes = Object.fromEntries(
  Object.entries(routeFiles).map(([file, module]) => [file.replace('../../app', '').replace('/route.ts', '').replace(/\[(\w+)\]/g, '{$1}'), module]),
);
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

let doc: Document;
let key: string;
const checked = new Set<string>();

beforeAll(async () => {
  doc = (await (await openApiRoute(new Request('http://localhost/api/openapi.json'))).json()) as Document;
  const owner = await createUser('openapi');
  const workspace = await createWorkspace(owner, { name: 'OpenAPI' });
  key = (await createApiKey(owner, workspace.id, { name: 'openapi' })).secret;
});

/** A schema with its `$ref`s written out. */
function inline(schema: Schema): Schema {
  if (typeof schema.$ref === 'string') return inline(doc.components.schemas[schema.$ref.split('/').pop()!]!);
  return Object.fromEntries(
    Object.entries(schema).map(([k, v]) => [k, Array.isArray(v) ? v.map((x) => (x && typeof x === 'object' ? inline(x) : x)) : v && typeof v === 'object' ? inline(v as Schema) : v]),
  );
}

/** A schema without its descriptions, which the document adds to what the zod schema says. */
function withoutNotes(schema: Schema): Schema {
  const { description: _, ...rest } = schema;
  const out: Schema = { ...rest };
  if (rest.properties) out.properties = Object.fromEntries(Object.entries(rest.properties as Record<string, Schema>).map(([name, p]) => [name, withoutNotes(p)]));
  if (rest.items) out.items = withoutNotes(rest.items as Schema);
  if (rest.anyOf) out.anyOf = (rest.anyOf as Schema[]).map(withoutNotes);
  return out;
}

const fits = (schema: Schema, value: unknown) => {
  const result = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]).safeParse(value);
  return result.success ? 'fits' : result.error.message;
};

const queryOf = (schema: Schema) =>
  Object.entries(schema.properties as Record<string, Schema>).map(([name, property]) => ({
    name,
    required: ((schema.required as string[] | undefined) ?? []).includes(name),
    schema: withoutNotes(property),
  }));

/** Calls an operation as a client of the document would, and checks the route against it. */
async function check(name: string, input: { id?: string; query?: string; body?: unknown } = {}) {
  const [method, path] = name.split(' ') as [string, string];
  const operation = doc.paths[path]?.[method.toLowerCase()];
  expect(operation, `${name} is in the document`).toBeDefined();
  const [status, success] = Object.entries(operation!.responses).find(([code]) => code.startsWith('2'))!;

  parsed.bodies.length = 0;
  parsed.queries.length = 0;
  const url = `${path.replace('{id}', input.id ?? '')}${input.query ?? ''}`;
  const answer = await callRoute(routes[path]![method]!, method, url, { key, body: input.body, ...(input.id ? { params: { id: input.id } } : {}) });

  expect(answer.status, JSON.stringify(answer.body)).toBe(Number(status));
  expect(fits(inline(success.content['application/json'].schema), answer.body), `${name}: the answer fits the document`).toBe('fits');

  const body = operation!.requestBody?.content['application/json'].schema;
  expect(parsed.bodies.map((schema) => withoutNotes(jsonSchemaOf(schema))), `${name}: the body schema`).toEqual(body ? [withoutNotes(inline(body))] : []);
  const documentedQuery = (operation!.parameters ?? []).filter((p) => p.in === 'query').map((p) => ({ name: p.name, required: p.required, schema: withoutNotes(p.schema) }));
  expect(parsed.queries.flatMap((schema) => queryOf(jsonSchemaOf(schema))), `${name}: the query parameters`).toEqual(documentedQuery);

  checked.add(name);
  return answer.body.data;
}

describe('/api/openapi.json against the routes', () => {
  it('describes every route of the topic API, each method it serves', () => {
    const served = Object.entries(routes).flatMap(([path, module]) => METHODS.filter((m) => m in module).map((m) => `${m} ${path}`));
    const described = Object.entries(doc.paths).flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`));
    expect(described.sort()).toEqual(served.sort());
  });

  it('has examples that fit their own schemas', () => {
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const body = operation.requestBody?.content['application/json'];
        if (body?.example !== undefined) expect(fits(inline(body.schema), body.example), `${method} ${path} body example`).toBe('fits');
        for (const [status, response] of Object.entries(operation.responses)) {
          const content = response.content['application/json'];
          if (content.example !== undefined) expect(fits(inline(content.schema), content.example), `${method} ${path} ${status} example`).toBe('fits');
        }
      }
    }
  });

  it('every operation parses with the documented schemas and answers as documented', async () => {
    const example = (name: string) => {
      const [method, path] = name.split(' ') as [string, string];
      return doc.paths[path]![method.toLowerCase()]!.requestBody!.content['application/json'].example as Record<string, unknown>;
    };

    const topic = await check('POST /api/topics', { body: example('POST /api/topics') });
    await check('GET /api/topics');
    await check('GET /api/topics/{id}', { id: topic.id });
    await check('PUT /api/topics/{id}', { id: topic.id, body: { summary: 'Programming questions' } });

    const submitted = await check('POST /api/requests', { body: { ...example('POST /api/requests'), topic_id: topic.id } });
    await check('GET /api/requests', { query: '?status=pending&limit=10' });
    await check('GET /api/requests/{id}', { id: submitted.id, query: '?wait=0' });
    // Answered, as the queue would: a finished request fills every field the document names.
    await asService((tx) =>
      tx.query(`update public.topic_requests set status = 'completed', result = 'Use a dependency.', resolved_model = 'claude-sonnet-4-6', completed_at = now() where id = $1`, [
        submitted.id,
      ]),
    );
    await check('GET /api/requests/{id}', { id: submitted.id });
    await check('GET /api/sessions', { query: '?include_closed=true' });
    await check('GET /api/sessions/{id}', { id: submitted.session_id });
    await check('POST /api/topics/{id}/summarize', { id: topic.id });

    const pending = await check('POST /api/requests', { body: { prompt: 'And in Express?', topic_id: topic.id, session_id: submitted.session_id } });
    await check('DELETE /api/requests/{id}', { id: pending.id });
    await check('DELETE /api/sessions/{id}', { id: submitted.session_id });
    await check('DELETE /api/topics/{id}', { id: topic.id });
    await check('GET /api/health');

    const described = Object.entries(doc.paths).flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`));
    expect([...checked].sort()).toEqual(described.sort());
  });
});
