import * as exchange from '@/app/api/agent-auth/exchange/route';
import * as artifacts from '@/app/api/agents/me/artifacts/route';
import * as delegations from '@/app/api/agents/me/conversations/[conversationId]/delegations/route';
import * as messages from '@/app/api/agents/me/conversations/[conversationId]/messages/route';
import * as relay from '@/app/api/agents/me/conversations/[conversationId]/relay/route';
import * as resolve from '@/app/api/agents/me/conversations/[conversationId]/resolve/route';
import * as complete from '@/app/api/agents/me/deliveries/[deliveryId]/complete/route';
import * as extend from '@/app/api/agents/me/deliveries/[deliveryId]/extend/route';
import * as claim from '@/app/api/agents/me/deliveries/claim/route';
import * as events from '@/app/api/agents/me/events/route';
import * as heartbeat from '@/app/api/agents/me/heartbeat/route';
import * as outcome from '@/app/api/agents/me/results/actions/[eventId]/route';
import * as results from '@/app/api/agents/me/results/route';
import * as me from '@/app/api/agents/me/route';
import * as knownNames from '@/app/api/agents/me/workspaces/[workspaceId]/names/route';
import * as planetMetrics from '@/app/api/agents/me/workspaces/[workspaceId]/planets/[planet]/route';

type Handler = (req: Request, segment: { params: Promise<Record<string, string>> }) => Promise<Response>;
type RouteModule = Partial<Record<'GET' | 'POST', Handler>>;

// The agent endpoints, by path. Handlers are the route modules themselves: authentication,
// validation and the envelope are exactly what a bridge on a laptop meets over HTTP.
const ROUTES: Array<[RegExp, RouteModule]> = [
  [/^\/api\/agent-auth\/exchange$/, exchange as RouteModule],
  [/^\/api\/agents\/me$/, me as RouteModule],
  [/^\/api\/agents\/me\/events$/, events as RouteModule],
  [/^\/api\/agents\/me\/heartbeat$/, heartbeat as RouteModule],
  [/^\/api\/agents\/me\/deliveries\/claim$/, claim as RouteModule],
  [/^\/api\/agents\/me\/deliveries\/(?<deliveryId>[^/]+)\/complete$/, complete as RouteModule],
  [/^\/api\/agents\/me\/deliveries\/(?<deliveryId>[^/]+)\/extend$/, extend as RouteModule],
  [/^\/api\/agents\/me\/conversations\/(?<conversationId>[^/]+)\/messages$/, messages as RouteModule],
  [/^\/api\/agents\/me\/conversations\/(?<conversationId>[^/]+)\/resolve$/, resolve as RouteModule],
  [/^\/api\/agents\/me\/conversations\/(?<conversationId>[^/]+)\/delegations$/, delegations as RouteModule],
  [/^\/api\/agents\/me\/conversations\/(?<conversationId>[^/]+)\/relay$/, relay as RouteModule],
  // What a turn's tools publish: cards, artifacts and a click's outcome.
  [/^\/api\/agents\/me\/results$/, results as RouteModule],
  [/^\/api\/agents\/me\/results\/actions\/(?<eventId>[^/]+)$/, outcome as RouteModule],
  [/^\/api\/agents\/me\/artifacts$/, artifacts as RouteModule],
  // What a turn's read tools read: the business, in aggregates.
  [/^\/api\/agents\/me\/workspaces\/(?<workspaceId>[^/]+)\/planets\/(?<planet>[^/]+)$/, planetMetrics as RouteModule],
  // The names a turn's run aliases before anything reaches its model.
  [/^\/api\/agents\/me\/workspaces\/(?<workspaceId>[^/]+)\/names$/, knownNames as RouteModule],
];

/**
 * A `fetch` that serves the agent API from this process: the hosted runner's transport (and the
 * tests'). Same requests, same route handlers, no socket. It lives outside lib/ because it wires the
 * app's routes: like instrumentation-node.ts, it is where the application is put together.
 */
export const inProcessFetch: typeof fetch = async (input, init) => {
  const req = new Request(input, init);
  const path = new URL(req.url).pathname;
  for (const [pattern, module] of ROUTES) {
    const match = pattern.exec(path);
    if (!match) continue;
    const handler = module[req.method as 'GET' | 'POST'];
    if (!handler) return Response.json({ success: false, data: null, error: { code: 'bad_request', message: `${req.method} is not allowed here.` } }, { status: 405 });
    return handler(req, { params: Promise.resolve({ ...match.groups }) });
  }
  return Response.json({ success: false, data: null, error: { code: 'not_found', message: 'Nothing exists at this address.' } }, { status: 404 });
};

/** The base URL the in-process transport is given (any URL works; this one says what it is). */
export const IN_PROCESS_URL = 'http://in-process.multiverbe';
