import { startBackgroundWork } from '@/inngest';
import { getDemoCredentials, mailboxKey } from '@/lib/auth';
import { startHostedSupervisor } from '@/lib/bridge';
import { config } from '@/lib/config';
import { getDb } from '@/lib/db';
import { seedDemo } from '@/lib/demo';
import { inProcessFetch, IN_PROCESS_URL } from '@/server/agent-api';

/**
 * Runs once when the server process starts: validates settings, opens (and in embedded mode
 * migrates) the database, seeds the demo workspace on a fresh embedded install, and starts the local
 * background executor when no Inngest server is configured.
 */
export async function startServer() {
  const cfg = config();
  await getDb();
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
  // Release leases on shutdown so another process picks the work up at once, not after they expire.
  if (executor) process.once('SIGTERM', () => void executor.stop());
  // Hosted agents' turns run wherever background work runs: a long-lived process (Inngest Cloud's
  // short invocations cannot hold an agent's connection). Their bridges stop with the process.
  if (executor) {
    const hosted = startHostedSupervisor({ fetch: inProcessFetch, url: IN_PROCESS_URL });
    process.once('SIGTERM', () => void hosted.stop());
  }
}
