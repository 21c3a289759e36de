/**
 * Runs once when the server process starts: validates settings, opens (and in embedded mode
 * migrates) the database, seeds the demo workspace on a fresh embedded install, and starts the local
 * background executor when no Inngest server is configured.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { config } = await import('@/lib/config');
  const { getDb } = await import('@/lib/db');
  const { getDemoCredentials } = await import('@/lib/auth');
  const { seedDemo } = await import('@/lib/demo');
  const { startBackgroundWork } = await import('@/inngest');

  const cfg = config();
  await getDb();
  if (cfg.embedded ? cfg.SEED_DEMO !== '0' : cfg.SEED_DEMO === '1') {
    await seedDemo();
    const login = await getDemoCredentials();
    if (login) {
      console.log(
        `\n  Multiverbe is running on the embedded database (${cfg.PGLITE_DIR}).\n` +
          `  Demo login: ${login.email} / ${login.password}\n  Open ${cfg.APP_URL}/sign-in\n`,
      );
    }
  }
  const executor = await startBackgroundWork();
  // Release leases on shutdown so another process picks the work up at once, not after they expire.
  if (executor) process.once('SIGTERM', () => void executor.stop());
}
