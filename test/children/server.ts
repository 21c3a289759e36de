import { createInterface } from 'node:readline';
import { getDb } from '@/lib/db';
import { startServer } from '@/instrumentation-node';

/**
 * The app's server side in a process of its own, for tests that kill or stop it: what `next start`
 * runs at start-up (instrumentation-node.ts), without the HTTP server. Says `ready` on stdout once
 * started; each line on stdin is a SQL statement, answered with its rows as one JSON line (the embedded
 * database can be read only through the process that has it open).
 */
await startServer();
process.stdout.write('ready\n');
for await (const line of createInterface({ input: process.stdin })) {
  try {
    process.stdout.write(`${JSON.stringify({ rows: await (await getDb()).query(line) })}\n`);
  } catch (error) {
    process.stdout.write(`${JSON.stringify({ error: (error as Error).message })}\n`);
  }
}
