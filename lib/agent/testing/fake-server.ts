import { createHash, type Hash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A model API on loopback for tests and benchmarks. Speaks the Anthropic Messages API (JSON and SSE
 * streaming) and enough of OpenAI's chat completions for the openai backend; replays scripted turns,
 * errors (429 with retry-after, 529 overload) and hangs; reports cache reads when a cached prefix
 * repeats; and records every request it receives.
 */

export interface ScriptedTurn {
  text?: string;
  toolCalls?: Array<{ name: string; input: unknown; id?: string }>;
  /** Defaults to tool_use when there are tool calls, else end_turn. */
  stopReason?: string;
  outputTokens?: number;
}

export interface ScriptedError {
  error: { status: number; type?: string; message?: string; retryAfterSeconds?: number };
}

/** Never answers; the connection closes when the client gives up (abort, deadline). */
export interface ScriptedHang {
  hang: true;
}

export type ScriptedResponse = ScriptedTurn | ScriptedError | ScriptedHang;

export interface RecordedRequest {
  api: 'anthropic' | 'openai' | 'other';
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  raw: string;
  /** `performance.now()` when the whole request had arrived: benchmarks time a loop from request to request. */
  receivedAt: number;
  // The parsed JSON body, as sent: tests read whatever field they check.
  body: any;
  /** Anthropic: the request's bytes up to the first cache breakpoint (tools, then system blocks through it). */
  cachePrefix?: string;
  /** Every piece of text in the request (system, messages, tool results), for leak checks. */
  text: string;
}

export type Responder = (request: RecordedRequest) => ScriptedResponse;

export interface FakeModelServer {
  /** Base URL for ANTHROPIC_BASE_URL (the SDK appends /v1/messages). */
  url: string;
  /** Base URL for OPENAI_BASE_URL. */
  openaiUrl: string;
  requests: RecordedRequest[];
  /** Queues responses; each model request takes the next one. */
  script(...responses: ScriptedResponse[]): void;
  /** Answers requests once the script is used up (default: a text reply "ok"). */
  respond: Responder;
  /** Forgets recorded requests, queued responses and the prompt cache, and restores the default responder. */
  reset(): void;
  close(): Promise<void>;
}

const tokens = (bytes: number) => Math.ceil(bytes / 4);

const defaultResponder: Responder = () => ({ text: 'ok' });

export async function startFakeModelServer(): Promise<FakeModelServer> {
  const queue: ScriptedResponse[] = [];
  const cache = new Set<string>();
  let ids = 0;

  const fake: FakeModelServer = {
    url: '',
    openaiUrl: '',
    requests: [],
    script: (...responses) => queue.push(...responses),
    respond: defaultResponder,
    reset() {
      fake.requests.length = 0;
      queue.length = 0;
      cache.clear();
      fake.respond = defaultResponder;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  const server = createServer(async (req, res) => {
    const raw = await readBody(req);
    const receivedAt = performance.now();
    // A client that already gave up (abort, deadline) must not take a response meant for the next request.
    if (req.socket.destroyed) return;
    const path = (req.url ?? '/').split('?')[0]!;
    let body: any = undefined;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      // recorded as is
    }
    const api = path === '/v1/messages' ? 'anthropic' : path === '/v1/chat/completions' ? 'openai' : 'other';
    const recorded: RecordedRequest = {
      api,
      method: req.method ?? 'GET',
      path,
      headers: req.headers,
      raw,
      receivedAt,
      body,
      text: body ? collectText(body) : raw,
      ...(api === 'anthropic' && body ? { cachePrefix: cachePrefix(body) } : {}),
    };
    fake.requests.push(recorded);

    if (api === 'other') return otherEndpoint(path, body, res);
    const response = queue.shift() ?? fake.respond(recorded);
    if ('hang' in response) return; // the client's abort closes the socket
    if ('error' in response) return sendError(res, api, response.error);

    const id = () => `toolu_fake_${++ids}`;
    if (api === 'anthropic') {
      const usage = anthropicCache(body, cache);
      const message = anthropicMessage(body?.model, response, usage, id, `msg_fake_${++ids}`);
      if (body?.stream) return sendSse(res, message);
      return sendJson(res, 200, message);
    }
    sendJson(res, 200, openaiCompletion(body, response, openaiCache(body, cache), id, `chatcmpl-fake-${++ids}`));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  fake.url = `http://127.0.0.1:${port}`;
  fake.openaiUrl = `${fake.url}/v1`;
  return fake;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), 'request-id': 'req_fake', ...headers });
  res.end(text);
}

function sendError(res: ServerResponse, api: 'anthropic' | 'openai', error: ScriptedError['error']) {
  const headers: Record<string, string> = {};
  if (error.retryAfterSeconds !== undefined) headers['retry-after'] = String(error.retryAfterSeconds);
  const type =
    error.type ??
    ({ 400: 'invalid_request_error', 401: 'authentication_error', 403: 'permission_error', 429: 'rate_limit_error', 529: 'overloaded_error' } as Record<number, string>)[
      error.status
    ] ??
    'api_error';
  const message = error.message ?? `fake ${type}`;
  const body = api === 'anthropic' ? { type: 'error', error: { type, message } } : { error: { type, message, code: null, param: null } };
  sendJson(res, error.status, body, headers);
}

function otherEndpoint(path: string, body: any, res: ServerResponse) {
  if (path === '/v1/messages/count_tokens') return sendJson(res, 200, { input_tokens: tokens(JSON.stringify(body ?? {}).length) });
  if (path === '/v1/models') {
    return sendJson(res, 200, { data: [{ type: 'model', id: 'claude-sonnet-4-6', display_name: 'Claude Sonnet 4.6', created_at: '2026-01-01T00:00:00Z' }], has_more: false, first_id: null, last_id: null });
  }
  sendJson(res, 404, { type: 'error', error: { type: 'not_found_error', message: `fake server: no ${path}` } });
}

// --- Anthropic -------------------------------------------------------------------------------------

interface CacheUsage {
  input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

/** The blocks of a request in the order the API caches them (tools, system, messages), breakpoints marked. */
function anthropicBlocks(body: any): Array<{ json: string; breakpoint: boolean }> {
  const blocks: Array<{ json: string; breakpoint: boolean }> = [];
  const add = (value: any, prefix = '') => {
    const { cache_control, ...rest } = value ?? {};
    blocks.push({ json: prefix + JSON.stringify(rest), breakpoint: Boolean(cache_control) });
  };
  for (const tool of body?.tools ?? []) add(tool);
  const system = body?.system;
  if (typeof system === 'string') add({ type: 'text', text: system });
  else for (const block of system ?? []) add(block);
  for (const message of body?.messages ?? []) {
    const content = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    for (const block of content ?? []) add(block, `${message.role}:`);
  }
  return blocks;
}

/**
 * Prompt caching as the API does it: a breakpoint writes the prefix through it; a later request reads the
 * longest cached prefix ending at one of its block boundaries up to its last breakpoint. Cache markers
 * themselves are not part of the prefix, so a breakpoint that moves along the conversation still hits.
 */
function anthropicCache(body: any, cache: Set<string>): CacheUsage {
  const blocks = anthropicBlocks(body);
  const hash: Hash = createHash('sha256');
  const boundaries: Array<{ digest: string; bytes: number; breakpoint: boolean }> = [];
  let bytes = 0;
  for (const block of blocks) {
    hash.update(block.json);
    bytes += block.json.length;
    boundaries.push({ digest: hash.copy().digest('hex'), bytes, breakpoint: block.breakpoint });
  }
  const lastBreakpoint = boundaries.map((b) => b.breakpoint).lastIndexOf(true);
  let read = 0;
  for (let i = lastBreakpoint; i >= 0; i--) {
    if (cache.has(`a:${boundaries[i]!.digest}`)) {
      read = tokens(boundaries[i]!.bytes);
      break;
    }
  }
  const cachedThrough = lastBreakpoint >= 0 ? tokens(boundaries[lastBreakpoint]!.bytes) : 0;
  for (const b of boundaries) if (b.breakpoint) cache.add(`a:${b.digest}`);
  const total = tokens(bytes);
  return { input_tokens: total - cachedThrough, cache_read_input_tokens: read, cache_creation_input_tokens: cachedThrough - read };
}

/** The bytes of the request up to and including the first block with a cache breakpoint. */
function cachePrefix(body: any): string | undefined {
  const system = Array.isArray(body.system) ? body.system : [];
  const toolMarked = (body.tools ?? []).findIndex((t: any) => t.cache_control);
  if (toolMarked >= 0) return JSON.stringify({ tools: body.tools.slice(0, toolMarked + 1) });
  const systemMarked = system.findIndex((b: any) => b.cache_control);
  if (systemMarked < 0) return undefined;
  return JSON.stringify({ tools: body.tools ?? [], system: system.slice(0, systemMarked + 1) });
}

function anthropicMessage(model: string, turn: ScriptedTurn, usage: CacheUsage, toolId: () => string, id: string) {
  const content: any[] = [];
  if (turn.text) content.push({ type: 'text', text: turn.text });
  for (const call of turn.toolCalls ?? []) content.push({ type: 'tool_use', id: call.id ?? toolId(), name: call.name, input: call.input });
  const output = turn.outputTokens ?? Math.max(1, tokens(JSON.stringify(content).length));
  return {
    id,
    type: 'message',
    role: 'assistant',
    model: model ?? 'claude-sonnet-4-6',
    content,
    stop_reason: turn.stopReason ?? (turn.toolCalls?.length ? 'tool_use' : 'end_turn'),
    stop_sequence: null,
    usage: { ...usage, output_tokens: output, service_tier: 'standard' },
  };
}

function sendSse(res: ServerResponse, message: ReturnType<typeof anthropicMessage>) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': 'req_fake' });
  const send = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  send('message_start', { type: 'message_start', message: { ...message, content: [], stop_reason: null, usage: { ...message.usage, output_tokens: 1 } } });
  send('ping', { type: 'ping' });
  message.content.forEach((block: any, index: number) => {
    if (block.type === 'text') {
      send('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text } });
    } else {
      send('content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
      send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
    }
    send('content_block_stop', { type: 'content_block_stop', index });
  });
  send('message_delta', { type: 'message_delta', delta: { stop_reason: message.stop_reason, stop_sequence: null }, usage: message.usage });
  send('message_stop', { type: 'message_stop' });
  res.end();
}

// --- OpenAI ----------------------------------------------------------------------------------------

/** OpenAI caches any repeated prefix by itself: cached tokens are the longest prefix (by message) seen before. */
function openaiCache(body: any, cache: Set<string>): { prompt: number; cached: number } {
  const hash = createHash('sha256');
  hash.update(JSON.stringify(body?.tools ?? []));
  let bytes = 0;
  let cached = 0;
  for (const message of body?.messages ?? []) {
    const json = JSON.stringify(message);
    hash.update(json);
    bytes += json.length;
    const key = `o:${hash.copy().digest('hex')}`;
    if (cache.has(key)) cached = tokens(bytes);
    cache.add(key);
  }
  return { prompt: tokens(bytes), cached };
}

function openaiCompletion(body: any, turn: ScriptedTurn, usage: { prompt: number; cached: number }, toolId: () => string, id: string) {
  const toolCalls = (turn.toolCalls ?? []).map((c) => ({ id: c.id ?? toolId(), type: 'function', function: { name: c.name, arguments: JSON.stringify(c.input) } }));
  const completion = turn.outputTokens ?? Math.max(1, tokens(JSON.stringify([turn.text ?? '', toolCalls]).length));
  return {
    id,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: body?.model ?? 'gpt-fake',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: turn.text ?? null, refusal: null, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) },
        finish_reason: toolCalls.length ? 'tool_calls' : 'stop',
        logprobs: null,
      },
    ],
    usage: { prompt_tokens: usage.prompt, completion_tokens: completion, total_tokens: usage.prompt + completion, prompt_tokens_details: { cached_tokens: usage.cached } },
  };
}

function collectText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(collectText).join('\n');
  if (value && typeof value === 'object') return Object.values(value).map(collectText).join('\n');
  return '';
}
