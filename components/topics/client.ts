import { ApiRequestError } from '@/components/api/client';
import type { RequestWire, SessionWithRequestsWire, TopicWire } from '@/lib/topics';

export type { RequestWire, TopicWire };
export type SessionView = SessionWithRequestsWire;

/**
 * Calls the topic API from the app's pages: the signed-in member's session cookie plus the workspace in
 * X-Workspace-Id (instead of an API key). The topic API answers programs in English unless they ask for
 * another language, so the page asks for its own (`<html lang>`). Unwraps the contract's envelope like `api()` does.
 */
export async function topicApi<T>(workspaceId: string, path: string, options: { method?: string; body?: unknown } = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
      headers: {
        'x-workspace-id': workspaceId,
        'accept-language': document.documentElement.lang,
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiRequestError(0, 'network', '');
  }
  const envelope = (await response.json().catch(() => null)) as { success: boolean; data: T; error: { code: string; message: string; details?: { fieldErrors?: Record<string, string[]> } } | null } | null;
  if (response.ok && envelope?.success) return envelope.data;
  throw new ApiRequestError(response.status, envelope?.error?.code ?? 'internal', envelope?.error?.message ?? '', envelope?.error?.details?.fieldErrors ?? {});
}

export const topicKey = (workspaceId: string, topicId: string) => ['topics', workspaceId, topicId] as const;
export const topicRequestsKey = (workspaceId: string, topicId: string) => ['topics', workspaceId, topicId, 'requests'] as const;
export const sessionKey = (workspaceId: string, sessionId: string) => ['topics', workspaceId, 'sessions', sessionId] as const;

/** Polling interval while anything is waiting or running; nothing to poll for otherwise. */
export const LIVE_MS = 3000;
export const isUnfinished = (r: RequestWire) => r.status === 'pending' || r.status === 'processing';
