import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { ApiError } from '@/lib/api';
import { config } from '@/lib/config';
import { log } from '@/lib/log';
import { callerForKey } from '@/lib/topics';
import { workspaceMcpServer } from './server';
import { mcpCaller } from './tasks';

/** A JSON-RPC error on its own, as the MCP transport answers what it refuses before any method runs. */
function refusal(status: number, message: string, { code = -32000, headers = {} }: { code?: number; headers?: Record<string, string> } = {}): Response {
  return Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status, headers });
}

/** The workspace API key of a request: `Authorization: Bearer mvk_…` (what MCP clients send) or `X-Api-Key`. */
function keyOf(req: Request): string | null {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.get('authorization') ?? '')?.[1];
  return bearer ?? req.headers.get('x-api-key')?.trim() ?? null;
}

/** A header's value read as a URL, or null: so Host and Origin are compared as browsers write them (lower case, no default port). */
function urlOf(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

/**
 * The transport specification's guard against DNS rebinding: a request addressed to another host
 * name (`Host`), or sent by a web page of another origin (`Origin`, when there is one), is refused
 * before anything else is looked at. Allowed: APP_URL's host and origin (on a loopback install, the
 * machine's three names), and MCP_ALLOWED_HOSTS / MCP_ALLOWED_ORIGINS. The SDK's own options for this
 * (`allowedHosts`, `allowedOrigins` on the transport) are deprecated in favour of middleware, which it
 * ships for Express only.
 */
function refusedAddress(req: Request): Response | null {
  const { hosts, origins } = config().mcpAllowed;
  const host = req.headers.get('host') ?? new URL(req.url).host;
  const hostname = urlOf(`http://${host}`)?.hostname;
  if (!hostname || !hosts.includes(hostname)) {
    return refusal(403, `This MCP endpoint does not answer to the host "${host}": send requests to ${config().APP_URL} (MCP_ALLOWED_HOSTS adds names).`);
  }
  const origin = req.headers.get('origin');
  if (origin !== null && !origins.includes(urlOf(origin)?.origin ?? '')) {
    return refusal(403, `Requests from web pages of "${origin}" are refused: only the app's own origin may call this MCP endpoint (MCP_ALLOWED_ORIGINS adds others).`);
  }
  return null;
}

/** Whether any call in the body asked for progress notifications (then the answer streams as SSE). */
function asksForProgress(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((m) => (m as { params?: { _meta?: { progressToken?: unknown } } } | null)?.params?._meta?.progressToken !== undefined);
}

/**
 * POST /api/mcp: MCP over Streamable HTTP, stateless (every request stands alone, so any instance can
 * answer it), at the app's own address only. A plain call gets one JSON response; a call with a progress
 * token gets an SSE stream with the progress notifications and then the result.
 */
export async function handleMcpRequest(req: Request): Promise<Response> {
  const refused = refusedAddress(req);
  if (refused) return refused;
  if (req.method !== 'POST') {
    return refusal(405, 'This MCP endpoint is stateless: send every message with POST.', { headers: { allow: 'POST' } });
  }
  const key = keyOf(req);
  const caller = key ? await callerForKey(key) : null;
  if (caller?.kind !== 'key') {
    return refusal(401, 'Send a workspace API key (Settings → API keys) as "Authorization: Bearer mvk_…".', { headers: { 'www-authenticate': 'Bearer' } });
  }
  let body: unknown;
  try {
    body = await req.json();
  } catch {
    return refusal(400, 'The body is not JSON.', { code: -32700 });
  }
  try {
    const server = await workspaceMcpServer(await mcpCaller(caller));
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: !asksForProgress(body) });
    transport.onerror = (error) => log('warn', 'mcp: transport error', { workspaceId: caller.workspaceId, error });
    await server.connect(transport);
    return await transport.handleRequest(req, { parsedBody: body });
  } catch (error) {
    if (error instanceof ApiError) return refusal(error.status, error.message);
    log('error', 'mcp: request failed', { workspaceId: caller.workspaceId, error });
    return refusal(500, 'Something went wrong on our side; the request was not handled.');
  }
}
