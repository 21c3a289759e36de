import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent } from '@/lib/agents';
import { resetConfigForTests } from '@/lib/config';
import { createApiKey } from '@/lib/topics';
import { createWorkspace } from '@/lib/workspaces';
import { setupTestDatabase, testDbKind } from '@/test/db';
import { createUser } from '@/test/fixtures';
import { handleMcpRequest } from './http';

/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance, pinned) against the endpoint,
 * served on a loopback port by a node:http adapter over the route's handler. The suite needs Node 22
 * and is fetched from the npm registry by npx on first use (about 15 s here; cached afterwards).
 * The scenarios are the ones that apply to a stateless endpoint whose only tools are agents:
 * initialize, ping, tools/list and DNS rebinding protection.
 */

setupTestDatabase();

const SUITE = '@modelcontextprotocol/conformance@0.1.16';
const SCENARIOS: Record<string, string[]> = {
  'server-initialize': ['server-initialize'],
  ping: ['ping'],
  'tools-list': ['tools-list'],
  'dns-rebinding-protection': ['localhost-host-rebinding-rejected', 'localhost-host-valid-accepted'],
};

let server: Server;
let url: string;
let results: string;
const savedAppUrl = process.env.APP_URL;

/** The route as `next start` serves it: the request as received (its Host and Origin included), the response streamed back. */
function serve(secret: string): Server {
  return createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    // The suite cannot be given a key: the adapter adds the workspace's, as a configured client sends it.
    if (!headers.has('authorization')) headers.set('authorization', `Bearer ${secret}`);
    const response = await handleMcpRequest(
      new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined }),
    );
    res.writeHead(response.status, [...response.headers]);
    await response.body?.pipeTo(new WritableStream({ write: (chunk) => void res.write(chunk) }));
    res.end();
  });
}

beforeAll(async () => {
  const owner = await createUser('owner');
  const team = await createWorkspace(owner, { name: 'Studio Aurora' });
  await createAgent(owner, { name: 'Nova', role: 'Bookkeeper', capabilities: ['invoices'], runtime: 'local', backend: 'offline' });
  const { secret } = await createApiKey(owner, team.id, { name: 'Conformance' });
  server = serve(secret);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The app is installed at this address, as on a laptop: its own host and origin.
  process.env.APP_URL = url;
  resetConfigForTests();
  results = await mkdtemp(join(tmpdir(), 'mcp-conformance-'));
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  if (results) await rm(results, { recursive: true, force: true });
  if (savedAppUrl === undefined) delete process.env.APP_URL;
  else process.env.APP_URL = savedAppUrl;
  resetConfigForTests();
});

type Check = { id: string; status: string; errorMessage?: string };

/**
 * Runs the scenarios one after another in a single npx call (resolving the packages once), without
 * blocking: the server answering them is this process. Returns each scenario's checks.
 */
async function runScenarios(scenarios: string[]): Promise<Record<string, Check[]>> {
  // Each scenario exits 1 when one of its checks fails; its checks.json says which, so go on regardless.
  const script = scenarios.map((s) => `conformance server --url '${url}/api/mcp' --scenario ${s} -o '${join(results, s)}'`).join('; ');
  const log = await new Promise<string>((resolve) =>
    execFile('npx', ['--prefer-offline', '-y', '-p', 'node@22', '-p', SUITE, '-c', script], { cwd: results, timeout: 110_000 }, (error, stdout, stderr) =>
      resolve(`${error ?? ''}\n${stdout}\n${stderr}`),
    ),
  );
  const ran: Record<string, Check[]> = {};
  for (const scenario of scenarios) {
    const [dir] = await readdir(join(results, scenario)).catch(() => []);
    if (!dir) throw new Error(`The conformance suite wrote no results for ${scenario}:\n${log}`);
    ran[scenario] = JSON.parse(await readFile(join(results, scenario, dir, 'checks.json'), 'utf8')) as Check[];
  }
  return ran;
}

// What the suite checks is the protocol, the same on either engine: it runs once, on the embedded default.
describe.skipIf(testDbKind === 'postgres')('the official MCP conformance suite', () => {
  it('passes the scenarios that apply to the endpoint: initialize, ping, tools/list, DNS rebinding protection', { timeout: 120_000 }, async () => {
    const ran = await runScenarios(Object.keys(SCENARIOS));
    for (const [scenario, checks] of Object.entries(SCENARIOS)) {
      expect(ran[scenario]!.map((c) => ({ id: c.id, status: c.status, error: c.errorMessage })), scenario).toEqual(
        checks.map((id) => ({ id, status: 'SUCCESS', error: undefined })),
      );
    }
  });
});
