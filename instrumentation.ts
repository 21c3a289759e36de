/** Next calls this once per server process; the work lives in a Node-only module. */
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') await (await import('./instrumentation-node')).startServer();
}
