import { Inngest } from 'inngest';
import { config } from '@/lib/config';
import { asService, elevated, type Tx } from '@/lib/db';

export const inngest = new Inngest({ id: 'multiverbe' });

/**
 * Every event the app sends: name → data. Add an entry here when a feature starts sending an event;
 * the compiler then checks senders and the handlers that trigger on it alike.
 */
export interface Events {
  /** A workspace's topic queue may have work: a request was submitted, finished or its worker died. */
  'topics/queue.wake': { workspaceId: string };
  /** An appointment was booked (a moved appointment counts as booked anew): starts its reminder flow. */
  'booking/created': { workspaceId: string; appointmentId: string };
  /** An appointment was cancelled (or moved away): its slot may go to the waitlist. */
  'booking/cancelled': { workspaceId: string; appointmentId: string };
  /** A message entered the outbox; it is delivered once `sendAfter` has passed (lib/actions/outbox). */
  'messages/queued': { workspaceId: string; messageId: string; sendAfter: string };
  /** An account mail (reset, invitation, quota warning) waits for the install's SMTP from `sendAfter` (lib/channels). */
  'account-mail/queued': { mailId: string; sendAfter: string };
  /** One planet's daily analysis for one local date, sent by the hourly fan-out (lib/insights). */
  'insights/analyze.planet': { workspaceId: string; planet: string; localDate: string };
  /** A proposal now waits for an owner's or admin's OK ("Needs your OK"): its push goes out (lib/push). */
  'decisions/proposed': { workspaceId: string; decisionId: string };
}

export type EventName = keyof Events & string;

/** An event as sent: `{ name, data }` with `data` typed by name. */
export type AppEvent = { [N in EventName]: { name: N; data: Events[N] } }[EventName];

/**
 * The one way the app emits events. With Inngest Cloud configured they go to Inngest; otherwise they are
 * rows for the local executor. Pass the transaction that writes the data the event is about, and the
 * event exists exactly when that data does (transactional outbox) — locally. Inngest Cloud receives the
 * event immediately, whatever becomes of `tx`, so handlers must re-read the data they are told about.
 */
export async function sendEvent(events: AppEvent | readonly AppEvent[], tx?: Tx): Promise<{ ids: string[] }> {
  const list: readonly AppEvent[] = Array.isArray(events) ? events : [events as AppEvent];
  if (list.length === 0) return { ids: [] };
  if (config().inngestCloud) {
    const { ids } = await inngest.send([...list]);
    return { ids };
  }
  return tx ? insertLocalEvents(tx, list) : asService((service) => insertLocalEvents(service, list));
}

/** Writes events for the local executor, also from inside a user's (RLS) transaction. */
export async function insertLocalEvents(tx: Tx, events: readonly { name: string; data: unknown }[]): Promise<{ ids: string[] }> {
  const payload = JSON.stringify(events.map(({ name, data }) => ({ name, data: data ?? {} })));
  const rows = await elevated(tx, (service) => service.query<{ id: string }>('select private.executor_send_events($1::jsonb) as id', [payload]));
  return { ids: rows.map((row) => row.id) };
}
