/** Calls route handlers directly, the way Next does, for the contract tests and the benchmark. */

export type RouteHandler<P> = (req: Request, segment?: { params?: Promise<P> }) => Promise<Response>;

export interface Called<T = any> {
  status: number;
  headers: Headers;
  // The parsed envelope, as received: tests read whatever field they check.
  body: { success: boolean; data: T; error: any };
}

export async function callRoute<T = any, P = Record<string, string>>(
  handler: RouteHandler<P>,
  method: string,
  path: string,
  options: { key?: string; body?: unknown; headers?: Record<string, string>; params?: P } = {},
): Promise<Called<T>> {
  const headers: Record<string, string> = { ...(options.key ? { 'x-api-key': options.key } : {}), ...options.headers };
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  }
  const response = await handler(new Request(`http://localhost${path}`, { method, headers, body }), options.params ? { params: Promise.resolve(options.params) } : undefined);
  return { status: response.status, headers: response.headers, body: await response.json() };
}
