/**
 * The agent side of Multiverbe's HTTP API, as the bridge uses it: the same calls whether the bridge
 * runs on a laptop (real fetch) or inside the app as a hosted runner (the in-process fetch).
 * Bodies travel in the API envelope; dates arrive as ISO strings.
 */
import type { exchangeAgentCredential, OwnedAgent, recordHeartbeat } from '@/lib/agents';
import type { Wire } from '@/lib/api';
import type { publishArtifact } from '@/lib/artifacts';
import type { publishResults, reportOutcome } from '@/lib/cards';
import type { ClaimedDelivery, delegate, DeliveryOutcome, extendLease, sendMessage } from '@/lib/chat';
import type { Planet, PlanetMetrics } from '@/lib/planets';
import type { AgentConversationView } from './history';

export class AgentApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** What a route answering with `fn`'s result sends. */
type Answer<F extends (...args: never[]) => Promise<unknown>> = Wire<Awaited<ReturnType<F>>>;

/** The part of GET /api/agents/me a turn uses. */
export type AgentSelf = Pick<Wire<OwnedAgent>, 'id' | 'name' | 'role' | 'capabilities' | 'instructions' | 'backend' | 'model' | 'runtime'>;

export type Delivery = Wire<ClaimedDelivery>;

export type ConversationView = Wire<AgentConversationView>;

/** What a turn reads of POST /api/agents/me/results. */
export interface PublishedResults {
  message: Pick<Answer<typeof publishResults>['message'], 'id'>;
  cards: Pick<Answer<typeof publishResults>['cards'][number], 'id' | 'type' | 'template' | 'fallback'>[];
}

/** What a turn reads of POST /api/agents/me/artifacts. */
export interface PublishedArtifact {
  artifact: Pick<Answer<typeof publishArtifact>['artifact'], 'id' | 'currentVersion'>;
  message: Pick<Answer<typeof publishArtifact>['message'], 'id'>;
}

export interface SseEvent {
  event: string;
  data: unknown;
}

type Fetch = typeof fetch;

export function agentApi(baseUrl: string, fetchFn: Fetch = fetch) {
  const url = (path: string) => new URL(path, baseUrl).toString();

  async function call<T>(path: string, init: { method?: string; token?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<T> {
    const response = await fetchFn(url(path), {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: {
        ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...init.headers,
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const envelope = (await response.json().catch(() => null)) as { success: boolean; data: T; error: { code: string; message: string } | null } | null;
    if (!response.ok || !envelope?.success) {
      throw new AgentApiError(response.status, envelope?.error?.code ?? 'internal', envelope?.error?.message ?? `HTTP ${response.status} from ${path}`);
    }
    return envelope.data;
  }

  return {
    exchange: (secret: string) =>
      call<Answer<typeof exchangeAgentCredential>>('/api/agent-auth/exchange', { method: 'POST', headers: { 'x-agent-key': secret } }),
    me: (token: string) => call<AgentSelf>('/api/agents/me', { token }),
    heartbeat: (token: string, connectionId: string) => call<Answer<typeof recordHeartbeat>>('/api/agents/me/heartbeat', { token, body: { connectionId } }),
    claim: (token: string, body: { connectionId: string; limit: number; leaseSeconds: number }) =>
      call<Delivery[]>('/api/agents/me/deliveries/claim', { token, body }),
    extend: (token: string, deliveryId: string, body: { connectionId: string; leaseSeconds: number }) =>
      call<Answer<typeof extendLease>>(`/api/agents/me/deliveries/${deliveryId}/extend`, { token, body }),
    complete: (token: string, deliveryId: string, body: { connectionId: string; outcome: DeliveryOutcome; done?: boolean }) =>
      call<unknown>(`/api/agents/me/deliveries/${deliveryId}/complete`, { token, body }),
    view: (token: string, conversationId: string, limit = 30) =>
      call<ConversationView>(`/api/agents/me/conversations/${conversationId}/messages?limit=${limit}`, { token }),
    send: (token: string, conversationId: string, body: { body: string; replyTo?: { deliveryId: string; connectionId: string }; done?: boolean }) =>
      call<Answer<typeof sendMessage>>(`/api/agents/me/conversations/${conversationId}/messages`, { token, body }),
    resolve: (token: string, threadId: string, summary: string) =>
      call<unknown>(`/api/agents/me/conversations/${threadId}/resolve`, { token, body: { summary } }),
    delegate: (token: string, conversationId: string, body: { to: string[]; task: string; messageId?: string }) =>
      call<Answer<typeof delegate>>(`/api/agents/me/conversations/${conversationId}/delegations`, { token, body }),
    relay: (token: string, delegationId: string, result: string) =>
      call<unknown>(`/api/agents/me/conversations/${delegationId}/relay`, { token, body: { result } }),
    publishResults: (token: string, body: { conversationId: string; body?: string; results: unknown[] }) =>
      call<PublishedResults>('/api/agents/me/results', { token, body }),
    publishArtifact: (token: string, body: { conversationId: string; kind: string; title: string; language?: string; content: string; body?: string }) =>
      call<PublishedArtifact>('/api/agents/me/artifacts', { token, body }),
    reportOutcome: (token: string, eventId: string, body: { status: 'done' | 'failed'; outcome?: string }) =>
      call<Answer<typeof reportOutcome>>(`/api/agents/me/results/actions/${eventId}`, { token, body }),

    /** One planet's metrics in a workspace the agent is in (aggregates only). */
    planetMetrics: (token: string, workspaceId: string, planet: Planet) =>
      call<PlanetMetrics>(`/api/agents/me/workspaces/${workspaceId}/planets/${planet}`, { token }),
    /** The names a run aliases in a workspace the agent is in (its customers, leads, staff and members). */
    knownNames: (token: string, workspaceId: string) => call<{ names: string[] }>(`/api/agents/me/workspaces/${workspaceId}/names`, { token }),
    /** Opens the agent's event stream; the returned events end when the server or `signal` closes it. */
    async events(token: string, signal: AbortSignal): Promise<AsyncIterable<SseEvent>> {
      const response = await fetchFn(url('/api/agents/me/events'), { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' }, signal });
      if (!response.ok || !response.body) {
        const envelope = (await response.json().catch(() => null)) as { error?: { code: string; message: string } } | null;
        throw new AgentApiError(response.status, envelope?.error?.code ?? 'internal', envelope?.error?.message ?? `HTTP ${response.status} from the event stream`);
      }
      return readSse(response.body, signal);
    },
  };
}

export type AgentApi = ReturnType<typeof agentApi>;

/** What a turn reads and its tools do through the API (lib/bridge/turn.ts), with the connection's session token applied. */
export function turnApi(api: AgentApi, token: () => Promise<string>) {
  return {
    publishResults: async (body: Parameters<AgentApi['publishResults']>[1]) => api.publishResults(await token(), body),
    publishArtifact: async (body: Parameters<AgentApi['publishArtifact']>[1]) => api.publishArtifact(await token(), body),
    reportOutcome: async (eventId: string, body: Parameters<AgentApi['reportOutcome']>[2]) => api.reportOutcome(await token(), eventId, body),
    planetMetrics: async (workspaceId: string, planet: Planet) => api.planetMetrics(await token(), workspaceId, planet),
    knownNames: async (workspaceId: string) => (await api.knownNames(await token(), workspaceId)).names,
  };
}
export type TurnApi = ReturnType<typeof turnApi>;

/** Server-Sent Events from a byte stream: one `{event, data}` per frame; comments (keepalives) are skipped. */
export async function* readSse(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<SseEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const cancel = () => void reader.cancel().catch(() => {});
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true }).replace(/\r\n/g, '\n');
      let end;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let event = 'message';
        const data: string[] = [];
        for (const line of frame.split('\n')) {
          if (line.startsWith('event:')) event = line.slice(6).trim();
          else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
        }
        if (data.length === 0) continue;
        let parsed: unknown;
        try {
          parsed = JSON.parse(data.join('\n'));
        } catch {
          parsed = data.join('\n');
        }
        yield { event, data: parsed };
      }
    }
  } finally {
    signal?.removeEventListener('abort', cancel);
    reader.releaseLock();
  }
}
