import { runsBackgroundWork, startBackgroundWork } from '@/inngest';
import { getDemoCredentials, mailboxKey } from '@/lib/auth';
import { startHostedSupervisor } from '@/lib/bridge';
import { config } from '@/lib/config';
import { closeDb, getDb } from '@/lib/db';
import { seedDemo } from '@/lib/demo';
import { log } from '@/lib/log';
import { installOf, startWorker, installProcessWorker } from '@/lib/queue';
import { inProcessFetch, IN_PROCESS_URL } from '@/server/agent-api';

/** How long work in progress gets to finish on SIGTERM/SIGINT before its leases are handed back. */
const SHUTDOWN_GRACE_MS = 5_000;

/**
 * Runs once when the server process starts: validates settings, opens (and in embedded mode
 * migrates) the database, seeds the demo workspace on a fresh embedded install, and starts the local
 * background executor when no Inngest server is configured.
 */
export async function startServer() {
  const cfg = config();
  const db = await getDb();
  // A process that runs background work is a queue worker (lib/queue), registered before anything is
  // claimed: that also declares the process it replaces on this install dead, so whatever that one held
  // when it was killed is claimable at once rather than when its leases run out.
  const worker = runsBackgroundWork() ? await startWorker(db, { install: installOf() }) : null;
  if (worker) installProcessWorker(worker);
  const notes: string[] = [];
  if (cfg.embedded ? cfg.SEED_DEMO !== '0' : cfg.SEED_DEMO === '1') {
    await seedDemo();
    const login = await getDemoCredentials();
    if (login) notes.push(`Demo login: ${login.email} / ${login.password}`);
  }
  // The whole outbox opens only with this key: reset links for people who cannot sign in are in it.
  if (cfg.devMailbox) notes.push(`Dev mailbox (all mail): ${cfg.APP_URL}/dev/mailbox/unlock?key=${encodeURIComponent(await mailboxKey())}`);
  if (notes.length) {
    console.log(
      `\n  Multiverbe is running on ${cfg.embedded ? `the embedded database (${cfg.PGLITE_DIR})` : 'Postgres'}.\n` +
        notes.map((note) => `  ${note}\n`).join('') +
        `  Open ${cfg.APP_URL}/sign-in\n`,
    );
  }
  const executor = await startBackgroundWork();
  // Hosted agents' turns run wherever background work runs: a long-lived process (Inngest Cloud's
  // short invocations cannot hold an agent's connection). Their bridges stop with the process.
  const hosted = executor ? startHostedSupervisor({ fetch: inProcessFetch, url: IN_PROCESS_URL }) : null;

  // SIGTERM (a deploy, docker stop) and SIGINT (Ctrl-C): stop taking work, give what is in progress a
  // moment, hand back every lease still held, close the database, exit. Next.js leaves the signals to
  // us when NEXT_MANUAL_SIG_HANDLE is set (scripts/start.mjs and `npm run serve` set it); a second
  // signal during the shutdown changes nothing.
  let stopping = false;
  const shutdown = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log('info', 'shutting down', { signal });
    try {
      const settled = Promise.all([hosted?.stop({ graceMs: SHUTDOWN_GRACE_MS }), executor?.stop()]);
      await Promise.race([settled, new Promise((resolve) => setTimeout(resolve, SHUTDOWN_GRACE_MS).unref())]);
      await worker?.stop();
      await closeDb();
    } catch (error) {
      log('error', 'shutdown did not finish cleanly', { error });
    } finally {
      process.exit(0);
    }
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, (s) => void shutdown(s));
}
