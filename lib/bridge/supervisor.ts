import { hostname } from 'node:os';
import { HOST_TOKEN_SECONDS, issueHostToken } from '@/lib/agents';
import { log } from '@/lib/log';
import { processWorkerId } from '@/lib/queue';
import { subscribe } from '@/lib/realtime';
import { AgentBridge, type BridgeOptions, type TurnRunner } from './bridge';
import { forgetConnection, heardFrom, hostedAgentIds, isHosted } from './registry';
import { createTurnRunner } from './turn';

/**
 * The hosted runner: Multiverbe runs the turns of agents whose runtime is `hosted`, in this process,
 * with the very bridge a laptop runs (its transport is the in-process fetch of server/agent-api.ts). This process is the
 * host. Each agent's bridge holds a host token — good only for the exchange — that the supervisor
 * issues and renews; an agent moved to `local` loses it at once and its bridge stops.
 *
 * Agents come up one at a time, each reachable (its first heartbeat in the gateway registry) before
 * the next starts: bridges on one host share its backend login, so they must not all reach for it
 * at once. A restart goes the same way, one agent at a time, the others running meanwhile. A hosted agent created later is brought up by its first
 * delivery (the realtime `deliveries` event) or by the periodic check, whichever comes first.
 */

export type SupervisorEvent =
  | { type: 'starting'; agentId: string }
  | { type: 'reachable'; agentId: string; connectionId: string }
  | { type: 'unreachable'; agentId: string; connectionId: string }
  | { type: 'stopped'; agentId: string };

export interface SupervisorOptions {
  /** Names this host on its host tokens. Default: the machine's hostname. */
  host?: string;
  /** The agent API the bridges talk to: in the app, its routes served in-process (server/agent-api.ts). */
  fetch: typeof fetch;
  url: string;
  runTurn?: TurnRunner;
  /** How long a starting agent gets to become reachable before the next one starts anyway. */
  reachableTimeoutMs?: number;
  /** How often the set of hosted agents is checked again. */
  reconcileMs?: number;
  bridge?: Pick<BridgeOptions, 'heartbeatSeconds' | 'leaseSeconds' | 'backoff'>;
  onEvent?: (event: SupervisorEvent) => void;
}

/** Host tokens are issued for a day; a new one is taken when less than this is left. */
const HOST_TOKEN_RENEW_MS = 10 * 60_000;

export class HostedSupervisor {
  private readonly bridges = new Map<string, AgentBridge>();
  /** Starts run one after another through this chain. */
  private queue: Promise<void> = Promise.resolve();
  private readonly queued = new Set<string>();
  /** Agents a delivery event showed that are not hosted, with when that was checked. */
  private readonly notHosted = new Map<string, number>();
  private unsubscribe?: () => Promise<void>;
  private timer?: NodeJS.Timeout;
  private stopped = false;
  private readonly host: string;
  private readonly reconcileMs: number;

  constructor(private readonly options: SupervisorOptions) {
    this.host = options.host ?? hostname();
    this.reconcileMs = options.reconcileMs ?? 60_000;
  }

  /** Listens for work and brings the hosted agents up; the returned promise settles once they all were. */
  async start(): Promise<void> {
    this.unsubscribe = await subscribe((event) => {
      if (event.type === 'deliveries') void this.noticeWork(event.agentId);
    });
    this.timer = setInterval(() => void this.reconcile().catch((error) => log('error', 'hosted runner: check failed', { error })), this.reconcileMs);
    this.timer.unref();
    await this.reconcile();
  }

  /** Agents running here now. */
  running(): string[] {
    return [...this.bridges.keys()];
  }

  /** Starts the hosted agents not running here (one at a time) and stops the ones no longer hosted. */
  async reconcile(): Promise<void> {
    const hosted = await hostedAgentIds();
    for (const agentId of [...this.bridges.keys()]) if (!hosted.includes(agentId)) await this.stopAgent(agentId);
    for (const agentId of hosted) this.enqueueStart(agentId);
    await this.queue;
  }

  /**
   * Restarts this host's agents one at a time: each is stopped, started again and reachable before
   * the next is touched, so the others keep answering meanwhile and no two reach for the host's
   * backend login at once.
   */
  async restart(): Promise<void> {
    const hosted = await hostedAgentIds();
    for (const agentId of [...this.bridges.keys()]) if (!hosted.includes(agentId)) await this.stopAgent(agentId);
    for (const agentId of hosted) this.enqueueStart(agentId, { restart: true });
    await this.queue;
  }

  /** Stops every bridge; a turn in progress gets `graceMs` (default the bridge's 30 s) to finish. */
  async stop({ graceMs }: { graceMs?: number } = {}): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.unsubscribe?.();
    await this.queue;
    await Promise.all([...this.bridges.keys()].map((agentId) => this.stopAgent(agentId, { graceMs })));
  }

  private emit(event: SupervisorEvent) {
    this.options.onEvent?.(event);
  }

  private async noticeWork(agentId: string) {
    if (this.stopped || this.bridges.has(agentId) || this.queued.has(agentId)) return;
    const checked = this.notHosted.get(agentId);
    if (checked && Date.now() - checked < this.reconcileMs) return;
    try {
      if (await isHosted(agentId)) this.enqueueStart(agentId);
      else this.notHosted.set(agentId, Date.now());
    } catch (error) {
      log('warn', 'hosted runner: could not check an agent', { agentId, error });
    }
  }

  private enqueueStart(agentId: string, { restart = false } = {}) {
    if ((this.bridges.has(agentId) && !restart) || this.queued.has(agentId)) return;
    this.queued.add(agentId);
    this.notHosted.delete(agentId);
    this.queue = this.queue
      .then(async () => {
        if (restart) await this.stopAgent(agentId);
        await this.startAgent(agentId);
      })
      .catch((error) => log('error', 'hosted runner: an agent did not start', { agentId, error }))
      .finally(() => this.queued.delete(agentId));
  }

  private async startAgent(agentId: string): Promise<void> {
    if (this.stopped || this.bridges.has(agentId)) return;
    this.emit({ type: 'starting', agentId });
    let hostToken: { token: string; expiresAt: Date } | undefined;
    const credential = async () => {
      // Named after this process, so the deliveries the bridge holds are freed as soon as the process is known dead.
      if (!hostToken || hostToken.expiresAt.getTime() - Date.now() < HOST_TOKEN_RENEW_MS) {
        hostToken = await issueHostToken(agentId, this.host, HOST_TOKEN_SECONDS, processWorkerId());
      }
      return hostToken.token;
    };
    let heard!: () => void;
    const firstHeartbeat = new Promise<void>((resolve) => (heard = resolve));
    const bridge = new AgentBridge({
      url: this.options.url,
      fetch: this.options.fetch,
      credential,
      runTurn: this.options.runTurn ?? createTurnRunner(),
      ...this.options.bridge,
      onEvent: (event) => {
        if (event.type === 'heartbeat') heard();
      },
    });
    this.bridges.set(agentId, bridge);
    bridge.start();
    void bridge.done.then(() => {
      // It stopped by itself (its host token was refused: the agent is no longer hosted).
      if (this.bridges.get(agentId) !== bridge) return;
      this.bridges.delete(agentId);
      this.emit({ type: 'stopped', agentId });
    });

    // Reachable means the gateway registry has heard from this connection, not merely that it started.
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.options.reachableTimeoutMs ?? 30_000)));
    await Promise.race([firstHeartbeat, bridge.done, timeout]);
    clearTimeout(timer);
    if (await heardFrom(agentId, bridge.connectionId)) {
      this.emit({ type: 'reachable', agentId, connectionId: bridge.connectionId });
      log('info', 'hosted agent reachable', { agentId, connectionId: bridge.connectionId, host: this.host });
    } else {
      this.emit({ type: 'unreachable', agentId, connectionId: bridge.connectionId });
      log('warn', 'hosted agent not reachable yet; starting the next one', { agentId, connectionId: bridge.connectionId });
    }
  }

  private async stopAgent(agentId: string, { graceMs }: { graceMs?: number } = {}): Promise<void> {
    const bridge = this.bridges.get(agentId);
    if (!bridge) return;
    this.bridges.delete(agentId);
    await bridge.stop({ graceMs });
    await forgetConnection(agentId, bridge.connectionId);
    this.emit({ type: 'stopped', agentId });
  }
}

const holder = globalThis as unknown as { __mvHostedSupervisor?: HostedSupervisor };

/**
 * Starts this process's hosted runner once (safe to call again). The hosted agents come up in the
 * background, one at a time, so the server does not wait for them.
 */
export function startHostedSupervisor(options: SupervisorOptions): HostedSupervisor {
  if (!holder.__mvHostedSupervisor) {
    const supervisor = new HostedSupervisor(options);
    holder.__mvHostedSupervisor = supervisor;
    supervisor.start().catch((error) => log('error', 'hosted runner: did not start', { error }));
  }
  return holder.__mvHostedSupervisor;
}
