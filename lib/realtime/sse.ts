import { log } from '@/lib/log';

export type SseSend = (event: string, data: unknown) => void;

const KEEPALIVE_MS = 25_000;

/**
 * A Server-Sent Events response. `start` wires the stream up (subscriptions, a first event) and
 * returns its cleanup; if it throws, the caller gets the error before any response exists, so the
 * route answers with the usual envelope. The stream ends when the client goes away (`signal`), when
 * `start` calls `close`, or at `until` (a session that expires ends its stream and the client
 * reconnects with a fresh token). A comment line every 25 s keeps proxies from closing it.
 */
export async function sseResponse(
  signal: AbortSignal,
  start: (send: SseSend, close: () => void) => Promise<() => void | Promise<void>>,
  until?: Date,
): Promise<Response> {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let closed = false;
  let ready = false;
  let cleanup: (() => void | Promise<void>) | undefined;
  const timers: NodeJS.Timeout[] = [];

  // After the client cancels, the controller refuses enqueue/close: those throws mean "gone already".
  const write = (text: string) => {
    if (closed) return;
    try {
      controller.enqueue(encoder.encode(text));
    } catch {
      close();
    }
  };
  const end = () => {
    try {
      controller.close();
    } catch {
      // already cancelled by the client
    }
  };
  const close = () => {
    if (closed) return;
    closed = true;
    for (const timer of timers) clearTimeout(timer);
    signal.removeEventListener('abort', close);
    // Before `start` has returned there is nothing to clean up yet; that case is handled below.
    // A cleanup that fails (the database went away first) is logged, never an unhandled rejection.
    if (ready) void Promise.resolve(cleanup?.()).catch((error: unknown) => log('warn', 'sse: cleanup failed', { error })).finally(end);
  };

  // The start callback of a ReadableStream runs synchronously, so `controller` is set from here on.
  const stream = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c), cancel: close });
  cleanup = await start((event, data) => write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`), close);
  ready = true;
  if (closed || signal.aborted) {
    closed = true;
    await cleanup();
    end();
  } else {
    signal.addEventListener('abort', close);
    timers.push(setInterval(() => write(': keepalive\n\n'), KEEPALIVE_MS));
    if (until) timers.push(setTimeout(close, Math.max(0, until.getTime() - Date.now())));
  }
  return new Response(stream, {
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    },
  });
}
