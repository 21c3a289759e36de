import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { log } from '@/lib/log';
import { agentApi, AgentApiError, turnApi, type AgentApi, type AgentSelf, type ConversationView, type Delivery, type TurnApi } from './api';

/**
 * The bridge: one agent connection, the same code on a laptop (`npm run bridge`) and in a hosted
 * runner. It trades its credential for a session token (again before that expires), keeps the
 * agent's event stream open, and on `ready` and on every `deliveries` event runs the one claim — so
 * a live message and a backlog found after a reconnect are handled by the same path, oldest first.
 * Each claimed delivery becomes one turn: read the conversation, run the agent (its lease extended
 * while it runs), answer through the ordinary send path (which completes the delivery in the same
 * transaction), or pass. Heartbeats
 * keep the agent online in the gateway registry. Lost connections are retried with backoff;
 * `stop()` finishes the turn in progress first.
 */

export interface TurnInput {
  agent: AgentSelf;
  delivery: Delivery;
  view: ConversationView;
  /** Fires when the bridge is stopped hard, the turn's time is up, or the delivery was lost to another connection. */
  signal: AbortSignal;
  /** When the turn's time is up (`turnSeconds` after it started). The lease is kept until then. */
  deadline: Date;
  /** The agent API as this connection, for what a turn's tools publish (cards, artifacts, a click's outcome). */
  api: TurnApi;
}

/** What a turn decides; the bridge carries it out through the API. */
export type TurnDecision =
  | { kind: 'reply'; body: string; done?: boolean }
  /** Nothing to add: the next turn of the message runs. */
  | { kind: 'pass'; done?: boolean }
  /** In a side thread: post `summary` back where the thread came from and close it. */
  | { kind: 'resolve'; summary: string }
  /** In a DM: hand `task` to other agents in a parallel conversation, and tell the DM `body`. */
  | { kind: 'delegate'; to: string[]; task: string; body: string }
  /** In a delegation: bring `result` back to the DM it came from. */
  | { kind: 'relay'; result: string }
  /** The turn's tools already answered (a card, an artifact, a click's outcome): completed as replied, nothing more is said. */
  | { kind: 'answered'; done?: boolean };

export type TurnRunner = (input: TurnInput) => Promise<TurnDecision>;

export type BridgeEvent =
  | { type: 'connected'; agentId: string; connectionId: string }
  | { type: 'heartbeat'; agentId: string; connectionId: string }
  | { type: 'disconnected'; error: unknown; retryInMs: number }
  | { type: 'handled'; deliveryId: string; messageId: string; decision: TurnDecision['kind'] }
  | { type: 'failed'; deliveryId: string; error: unknown }
  | { type: 'stopped'; error?: unknown };

export interface BridgeOptions {
  /** The app's base URL (any URL when `fetch` is the in-process one). */
  url: string;
  /** The agent key (`mvk_…`) or a host token (`mvh_…`); asked for again at every exchange. */
  credential: () => Promise<string>;
  runTurn: TurnRunner;
  fetch?: typeof fetch;
  connectionId?: string;
  /** Default 45 s: well inside the 3-minute window after which an agent shows offline. */
  heartbeatSeconds?: number;
  /**
   * How long a claim holds without news from this connection (default 180 s). While a turn runs the
   * bridge extends it every third of that, so a long turn keeps its delivery and a crashed bridge's
   * delivery is free again within one lease.
   */
  leaseSeconds?: number;
  /** The longest a turn may run (default 600 s); then it is cancelled and passes. */
  turnSeconds?: number;
  /** Reconnect delays: doubling from `initialMs` up to `maxMs`, with jitter. */
  backoff?: { initialMs: number; maxMs: number };
  onEvent?: (event: BridgeEvent) => void;
}

/** Exchange again when less than this is left on the session token. */
const REFRESH_MARGIN_MS = 60_000;

/** The bridge cannot go on: its credential was refused or the agent no longer runs here. */
export class BridgeStoppedError extends Error {}

export class AgentBridge {
  readonly connectionId: string;
  agent: AgentSelf | null = null;
  private readonly api: AgentApi;
  private readonly heartbeatMs: number;
  private readonly leaseSeconds: number;
  private readonly turnSeconds: number;
  private readonly backoff: { initialMs: number; maxMs: number };
  private session: { token: string; expiresAt: number } | null = null;
  private stopping = false;
  /** Aborts the stream and any backoff wait. */
  private readonly stopSignal = new AbortController();
  /** Aborts turns in progress once a stop's grace period is over. */
  private readonly turnSignal = new AbortController();
  private wanted = false;
  private draining: Promise<void> | null = null;
  private running: Promise<void> | null = null;
  private fatal: BridgeStoppedError | undefined;

  constructor(private readonly options: BridgeOptions) {
    this.connectionId = options.connectionId ?? `${hostname().slice(0, 60)}-${randomBytes(4).toString('hex')}`;
    this.api = agentApi(options.url, options.fetch);
    this.heartbeatMs = (options.heartbeatSeconds ?? 45) * 1000;
    this.leaseSeconds = options.leaseSeconds ?? 180;
    this.turnSeconds = options.turnSeconds ?? 600;
    this.backoff = options.backoff ?? { initialMs: 500, maxMs: 30_000 };
  }

  /** Starts the connection loop in the background; `done` settles when it ends. */
  start(): this {
    this.running ??= this.loop();
    return this;
  }

  get done(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  /** Stops taking work; the turn in progress gets `graceMs` to finish before it is cancelled. */
  async stop({ graceMs = 30_000 }: { graceMs?: number } = {}): Promise<void> {
    this.stopping = true;
    this.stopSignal.abort();
    const timer = setTimeout(() => this.turnSignal.abort(), graceMs);
    try {
      await this.done;
      await this.draining;
    } finally {
      clearTimeout(timer);
    }
  }

  private emit(event: BridgeEvent) {
    try {
      this.options.onEvent?.(event);
    } catch (error) {
      log('error', 'bridge: event listener failed', { error });
    }
  }

  /** Ends the bridge for good: its credential was refused. */
  private halt(error: BridgeStoppedError) {
    this.fatal ??= error;
    this.stopping = true;
    this.stopSignal.abort();
  }

  private async loop(): Promise<void> {
    let failures = 0;
    while (!this.stopping) {
      const stream = new AbortController();
      const abortStream = () => stream.abort();
      this.stopSignal.signal.addEventListener('abort', abortStream);
      let heartbeat: NodeJS.Timeout | undefined;
      let refresh: NodeJS.Timeout | undefined;
      let ready = false;
      try {
        const token = await this.token();
        this.agent = await this.api.me(token);
        const events = await this.api.events(token, stream.signal);
        // Reconnect with a fresh token shortly before this one runs out (the server ends the stream then).
        refresh = setTimeout(abortStream, Math.max(1000, this.session!.expiresAt - Date.now() - REFRESH_MARGIN_MS));
        for await (const event of events) {
          if (event.event === 'ready') {
            ready = true;
            failures = 0;
            await this.beat();
            this.emit({ type: 'connected', agentId: this.agent.id, connectionId: this.connectionId });
            heartbeat = setInterval(() => void this.beat(), this.heartbeatMs);
            // Catch-up: whatever was queued while this connection was away.
            this.wake();
          } else if (event.event === 'deliveries') {
            this.wake();
          }
        }
        // A stream that ends after `ready` was closed on purpose (token refresh, server restart): reconnect now.
        if (!ready && !stream.signal.aborted) throw new Error('The event stream closed before it was ready.');
      } catch (error) {
        if (error instanceof BridgeStoppedError) this.halt(error);
        if (this.stopping) break;
        if (error instanceof AgentApiError && error.status === 401) this.session = null;
        // An aborted stream was our own token refresh: reconnect at once.
        if (!stream.signal.aborted) {
          failures++;
          const retryInMs = this.delay(failures);
          this.emit({ type: 'disconnected', error, retryInMs });
          log('warn', 'bridge: disconnected', { connectionId: this.connectionId, error: (error as Error).message, retryInMs });
          await sleep(retryInMs, this.stopSignal.signal);
        }
      } finally {
        clearInterval(heartbeat);
        clearTimeout(refresh);
        stream.abort();
        this.stopSignal.signal.removeEventListener('abort', abortStream);
      }
    }
    this.stopping = true;
    await this.draining;
    this.emit({ type: 'stopped', error: this.fatal });
    if (this.fatal) log('error', 'bridge: stopped', { connectionId: this.connectionId, error: this.fatal.message });
  }

  private delay(failures: number): number {
    const base = Math.min(this.backoff.maxMs, this.backoff.initialMs * 2 ** (failures - 1));
    return Math.round(base * (0.5 + Math.random() / 2));
  }

  /** A valid session token, exchanging the credential when there is none or it is about to expire. */
  private async token(): Promise<string> {
    // A little more than the stream's refresh margin, so a refresh always gets a new token.
    if (this.session && this.session.expiresAt - Date.now() > REFRESH_MARGIN_MS + 5_000) return this.session.token;
    let secret: string;
    try {
      secret = await this.options.credential();
    } catch (error) {
      // The credential's owner said no (a hosted agent moved to local, an agent deleted): stop here.
      const status = (error as { status?: number }).status;
      if (status && status >= 400 && status < 500) throw new BridgeStoppedError((error as Error).message);
      throw error;
    }
    try {
      const session = await this.api.exchange(secret);
      this.session = { token: session.token, expiresAt: Date.parse(session.expiresAt) };
      return session.token;
    } catch (error) {
      if (error instanceof AgentApiError && error.status === 401) throw new BridgeStoppedError(error.message);
      throw error;
    }
  }

  private async beat() {
    try {
      await this.api.heartbeat(await this.token(), this.connectionId);
      this.emit({ type: 'heartbeat', agentId: this.agent!.id, connectionId: this.connectionId });
    } catch (error) {
      log('warn', 'bridge: heartbeat failed', { connectionId: this.connectionId, error: (error as Error).message });
    }
  }

  /** Claims until the queue is empty; a wake during a drain makes it look once more. */
  private wake() {
    this.wanted = true;
    this.draining ??= this.drain().finally(() => {
      this.draining = null;
      if (this.wanted && !this.stopping) this.wake();
    });
  }

  private async drain() {
    while (this.wanted && !this.stopping) {
      this.wanted = false;
      try {
        for (;;) {
          if (this.stopping) return;
          const [delivery] = await this.api.claim(await this.token(), { connectionId: this.connectionId, limit: 1, leaseSeconds: this.leaseSeconds });
          if (!delivery) break;
          await this.handle(delivery);
        }
      } catch (error) {
        if (error instanceof BridgeStoppedError) return this.halt(error);
        if (error instanceof AgentApiError && error.status === 401) this.session = null;
        log('warn', 'bridge: claiming failed; trying again shortly', { connectionId: this.connectionId, error: (error as Error).message });
        // No event may come to wake us again: look once more after a pause.
        if (!this.stopping) await sleep(this.delay(1) * 4, this.stopSignal.signal);
        this.wanted = true;
      }
    }
  }

  private async handle(delivery: Delivery) {
    const deadline = new Date(Date.now() + this.turnSeconds * 1000);
    const lost = new AbortController();
    const signal = AbortSignal.any([this.turnSignal.signal, lost.signal, AbortSignal.timeout(this.turnSeconds * 1000)]);
    const keeper = this.keepLease(delivery, lost);
    try {
      let decision: TurnDecision;
      try {
        const view = await this.api.view(await this.token(), delivery.conversationId);
        decision = await this.options.runTurn({ agent: this.agent!, delivery, view, signal, deadline, api: turnApi(this.api, () => this.token()) });
      } catch (error) {
        // A turn that cannot run passes, so the next agent in line answers: never silence.
        this.emit({ type: 'failed', deliveryId: delivery.id, error });
        log('warn', 'bridge: turn failed; passing', { deliveryId: delivery.id, error: (error as Error).message });
        decision = { kind: 'pass' };
      }
      // Stopped hard mid-turn: the lease runs out and the delivery goes to the next connection.
      // Lost mid-turn: another connection holds it now and answers it.
      if (this.turnSignal.signal.aborted || lost.signal.aborted) return;
      await this.act(delivery, decision);
      this.emit({ type: 'handled', deliveryId: delivery.id, messageId: delivery.message.id, decision: decision.kind });
    } catch (error) {
      if (!(error instanceof AgentApiError)) throw error;
      if (error.status === 409) {
        // The lease was lost to another connection, which now owns the delivery.
        log('warn', 'bridge: delivery no longer ours', { deliveryId: delivery.id, error: error.message });
      } else if (error.status >= 400 && error.status < 500 && error.status !== 401) {
        // The answer was refused (say, a <dm> to an agent that is not here): pass instead of retrying it forever.
        log('warn', 'bridge: answer refused; passing', { deliveryId: delivery.id, error: error.message });
        this.emit({ type: 'failed', deliveryId: delivery.id, error });
        await this.api
          .complete(await this.token(), delivery.id, { connectionId: this.connectionId, outcome: 'passed' })
          .catch((e: Error) => log('warn', 'bridge: could not pass', { deliveryId: delivery.id, error: e.message }));
      } else {
        throw error;
      }
    } finally {
      clearInterval(keeper);
    }
  }

  /**
   * Extends the delivery's lease every third of a lease until the turn is over, so no other
   * connection takes it meanwhile. A refusal means another connection holds it now: `lost` fires and
   * the turn stops. A failed attempt (the network) is tried again at the next tick, two more before
   * the lease would run out.
   */
  private keepLease(delivery: Delivery, lost: AbortController): NodeJS.Timeout {
    const extend = async () => {
      try {
        await this.api.extend(await this.token(), delivery.id, { connectionId: this.connectionId, leaseSeconds: this.leaseSeconds });
      } catch (error) {
        if (error instanceof AgentApiError && (error.status === 409 || error.status === 404)) {
          log('warn', 'bridge: delivery lost mid-turn; stopping the turn', { deliveryId: delivery.id, error: error.message });
          lost.abort(error);
        } else {
          log('warn', 'bridge: could not extend the lease; trying again', { deliveryId: delivery.id, error: (error as Error).message });
        }
      }
    };
    return setInterval(() => void extend(), (this.leaseSeconds * 1000) / 3);
  }

  private async act(delivery: Delivery, decision: TurnDecision) {
    const token = await this.token();
    const replyTo = { deliveryId: delivery.id, connectionId: this.connectionId };
    const conversationId = delivery.conversationId;
    switch (decision.kind) {
      case 'reply':
        await this.api.send(token, conversationId, { body: decision.body, replyTo, done: decision.done });
        return;
      case 'pass':
        await this.api.complete(token, delivery.id, { connectionId: this.connectionId, outcome: 'passed', done: decision.done });
        return;
      case 'resolve':
        await this.api.resolve(token, conversationId, decision.summary);
        await this.api.complete(token, delivery.id, { connectionId: this.connectionId, outcome: 'replied', done: true });
        return;
      case 'delegate':
        await this.api.delegate(token, conversationId, { to: decision.to, task: decision.task, messageId: delivery.message.id });
        await this.api.send(token, conversationId, { body: decision.body, replyTo });
        return;
      case 'relay':
        await this.api.relay(token, conversationId, decision.result);
        await this.api.complete(token, delivery.id, { connectionId: this.connectionId, outcome: 'replied', done: true });
        return;
      case 'answered':
        await this.api.complete(token, delivery.id, { connectionId: this.connectionId, outcome: 'replied', done: decision.done });
        return;
    }
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
