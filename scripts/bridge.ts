// `npm run bridge -- --key mvk_…`: runs an agent from this machine. It connects to Multiverbe
// (--url, else APP_URL, else http://localhost:3000), answers the agent's messages with its backend
// (the agent's own setting, or --backend), and keeps it online until Ctrl-C. The key can come from
// MULTIVERBE_AGENT_KEY instead, which keeps it out of the process list. A hosted runner passes
// --host-token (or MULTIVERBE_HOST_TOKEN) instead of a key.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BACKENDS } from '@/lib/agent';
import { AgentBridge, createTurnRunner, openLocalRunLog, type TurnRunner } from '@/lib/bridge';

const { values } = parseArgs({
  options: {
    key: { type: 'string' },
    'host-token': { type: 'string' },
    url: { type: 'string' },
    backend: { type: 'string' },
    'connection-id': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});

const usage = `Usage: npm run bridge -- --key mvk_… [--url https://your.multiverbe] [--backend ${BACKENDS.join('|')}] [--connection-id laptop-1]
       npm run bridge -- --host-token mvh_… [--url …]
The key may also come from MULTIVERBE_AGENT_KEY, the host token from MULTIVERBE_HOST_TOKEN.`;

if (values.help) {
  console.log(usage);
  process.exit(0);
}
const secret = values.key ?? values['host-token'] ?? process.env.MULTIVERBE_AGENT_KEY ?? process.env.MULTIVERBE_HOST_TOKEN;
if (!secret) {
  console.error(`No agent key given.\n${usage}`);
  process.exit(2);
}
const backend = values.backend as (typeof BACKENDS)[number] | undefined;
if (backend && !BACKENDS.includes(backend)) {
  console.error(`Unknown backend "${backend}". Choose one of: ${BACKENDS.join(', ')}.`);
  process.exit(2);
}
const url = values.url ?? process.env.APP_URL ?? 'http://localhost:3000';

// runAgent keeps its books in a database: the app's own when this machine has DATABASE_URL (a
// self-hosted server), otherwise a run log of the bridge's own under .data/bridge. Preparing that
// takes a while the first time; the bridge connects meanwhile and its first turn waits for it.
const runner = createTurnRunner({ backend });
let runTurn: TurnRunner = runner;
if (!process.env.DATABASE_URL) {
  const runLog = openLocalRunLog(process.env.BRIDGE_DATA_DIR ?? path.join('.data', 'bridge'));
  runLog.catch((error: Error) => {
    console.error(`The local run log could not be opened: ${error.message}`);
    process.exit(1);
  });
  runTurn = async (input) => {
    await (await runLog).ensureWorkspace(input.delivery.workspaceId);
    return runner(input);
  };
}

const bridge = new AgentBridge({
  url,
  credential: async () => secret,
  runTurn,
  connectionId: values['connection-id'],
  onEvent: (event) => {
    const at = new Date().toLocaleTimeString();
    if (event.type === 'connected') console.log(`${at}  connected to ${url} as ${bridge.agent?.name} (connection ${event.connectionId})`);
    if (event.type === 'disconnected') console.log(`${at}  disconnected (${(event.error as Error).message}); retrying in ${Math.round(event.retryInMs / 100) / 10} s`);
    if (event.type === 'handled') console.log(`${at}  ${event.decision} · delivery ${event.deliveryId}`);
    if (event.type === 'failed') console.log(`${at}  turn failed · delivery ${event.deliveryId}: ${(event.error as Error).message}`);
    if (event.type === 'stopped' && event.error) console.error(`${at}  stopped: ${(event.error as Error).message}`);
  },
}).start();

// Ctrl-C once: finish the turn in progress, then leave. Twice: leave now.
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) process.exit(130);
    stopping = true;
    console.log('Stopping after the turn in progress… (again to quit now)');
    void bridge.stop().then(() => process.exit(0));
  });
}

await bridge.done;
process.exit(stopping ? 0 : 1);
