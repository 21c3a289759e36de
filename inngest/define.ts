import { Cron } from 'croner';
import type { InngestFunction } from 'inngest';
import type { Jsonify } from 'inngest/types';
import { inngest, type AppEvent, type EventName, type Events } from '@/lib/events';

export type Trigger = { event: EventName } | { cron: string };

/** Inngest accepts 0–20 retries. */
export type Retries = NonNullable<InngestFunction.Options['retries']>;

export const DEFAULT_RETRIES = 4;

export interface FunctionOptions<TTriggers extends readonly Trigger[] = readonly Trigger[]> {
  id: string;
  /** Events by name, and crons such as `0 * * * *` or `TZ=Europe/Rome 0 6 * * *` (UTC without `TZ=`). */
  triggers: TTriggers;
  /**
   * At most `limit` runs of this function executing at once per value of `key`, a dotted path into the
   * event such as `event.data.workspaceId` (no key: per function). Sleeping runs do not count.
   */
  concurrency?: { limit: number; key?: string };
  /** Attempts after the first, counted per step: completing a step resets the count. Default 4. */
  retries?: Retries;
  /** A dotted path into the event: at most one run per value of it in 24 hours. */
  idempotency?: string;
}

/** What a cron run receives as its event, as Inngest sends it. */
export interface ScheduledEvent {
  id: string;
  name: 'inngest/scheduled.timer';
  data: { cron: string };
  ts: number;
}

export type ReceivedEvent<T extends Trigger = Trigger> = T extends { event: infer N extends EventName }
  ? { id: string; name: N; data: Events[N]; ts: number }
  : ScheduledEvent;

/** Inngest's step results are JSON round-tripped (a Date comes back as a string); `void` becomes null. */
export type StepOutput<T> = Jsonify<[Awaited<T>] extends [void] ? null : Awaited<T>>;

/** The subset of Inngest's step tools both runtimes provide, with the same shapes. */
export interface Step {
  /** Runs `fn` once per run: the handler is replayed from the top and gets the stored result back. */
  run<T>(id: string, fn: () => T): Promise<StepOutput<T>>;
  /** `duration` in milliseconds or as Inngest writes it: `"30s"`, `"2h"`, `"1d"`. */
  sleep(id: string, duration: number | string): Promise<void>;
  sleepUntil(id: string, time: Date | string): Promise<void>;
  sendEvent(id: string, events: AppEvent | readonly AppEvent[]): Promise<{ ids: string[] }>;
}

export interface HandlerContext<TEvent = ReceivedEvent> {
  event: TEvent;
  step: Step;
  runId: string;
  /** Zero-based attempt of the current step. */
  attempt: number;
}

export type Handler<TEvent = ReceivedEvent> = (ctx: HandlerContext<TEvent>) => Promise<unknown>;

export interface BackgroundFunction {
  readonly id: string;
  readonly options: FunctionOptions;
  readonly handler: Handler;
  /** The same definition for Inngest Cloud, served at /api/inngest. */
  readonly inngestFunction: InngestFunction.Any;
}

/**
 * The one way background work is described. The result is served to Inngest Cloud and run by the local
 * executor alike, so write handlers the Inngest way: side effects inside `step.run`, everything outside
 * steps deterministic (it runs again on every replay).
 */
export function defineFunction<const TTriggers extends readonly Trigger[]>(
  options: FunctionOptions<TTriggers>,
  handler: Handler<ReceivedEvent<TTriggers[number]>>,
): BackgroundFunction {
  // Fail at import time, not at the first tick or event.
  for (const trigger of options.triggers) if ('cron' in trigger) parseCron(trigger.cron);
  if (options.concurrency?.key !== undefined) assertKeyPath(options.concurrency.key);
  if (options.idempotency !== undefined) assertKeyPath(options.idempotency);

  const inngestFunction = inngest.createFunction(
    {
      id: options.id,
      triggers: [...options.triggers],
      concurrency: options.concurrency,
      retries: options.retries ?? DEFAULT_RETRIES,
      idempotency: options.idempotency,
    },
    async ({ event, step, runId, attempt }) =>
      handler({
        event: event as unknown as ReceivedEvent<TTriggers[number]>,
        runId,
        attempt,
        step: {
          run: <T>(id: string, fn: () => T) => step.run(id, fn) as Promise<StepOutput<T>>,
          sleep: (id, duration) => step.sleep(id, duration),
          sleepUntil: (id, time) => step.sleepUntil(id, time),
          sendEvent: async (id, events) => {
            const { ids } = await step.sendEvent(id, Array.isArray(events) ? [...events] : (events as AppEvent));
            return { ids };
          },
        },
      }),
  );
  return { id: options.id, options, handler: handler as Handler, inngestFunction };
}

/** A cron trigger as Inngest reads it: an optional `TZ=<IANA zone> ` prefix, otherwise UTC. */
export function parseCron(expression: string): Cron {
  const zoned = /^TZ=(\S+)\s+(.+)$/.exec(expression.trim());
  const cron = new Cron(zoned ? zoned[2]! : expression, { timezone: zoned ? zoned[1] : 'UTC' });
  cron.nextRun(); // croner validates the time zone only when it computes a date
  return cron;
}

// Inngest evaluates keys as CEL; the local executor understands the dotted-path subset, so only that
// is accepted, and both runtimes group runs the same way.
const KEY_PATH = /^event(\.[A-Za-z_$][\w$]*)+$/;

function assertKeyPath(expression: string) {
  if (!KEY_PATH.test(expression)) {
    throw new Error(`Unsupported key expression "${expression}": use a dotted path such as event.data.workspaceId`);
  }
}

/** The value of a dotted-path key for an event, as text ('' when it is missing). */
export function evaluateKey(expression: string, event: unknown): string {
  let value: unknown = { event };
  for (const part of expression.split('.')) {
    value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
  }
  if (value === undefined || value === null) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
