import { afterEach, describe, expect, it } from 'vitest';
import { resetConfigForTests } from '@/lib/config';
import { createApiKey } from '@/lib/topics';
import { createWorkspace } from '@/lib/workspaces';
import { setupTestDatabase } from '@/test/db';
import { createUser } from '@/test/fixtures';
import { handleMcpRequest } from './http';

setupTestDatabase();

const SETTINGS = ['APP_URL', 'MCP_ALLOWED_HOSTS', 'MCP_ALLOWED_ORIGINS'] as const;
const saved = Object.fromEntries(SETTINGS.map((name) => [name, process.env[name]]));
afterEach(() => {
  for (const name of SETTINGS) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  resetConfigForTests();
});

function configure(env: Partial<Record<(typeof SETTINGS)[number], string>>) {
  for (const name of SETTINGS) delete process.env[name];
  Object.assign(process.env, env);
  resetConfigForTests();
}

async function workspaceKey() {
  const owner = await createUser('owner');
  const team = await createWorkspace(owner, { name: 'Studio Aurora' });
  return (await createApiKey(owner, team.id, { name: 'Booking site' })).secret;
}

/** tools/list as an HTTP client sends it, to the address `url`, with the headers given (Host among them, as a server receives it). */
const post = (url: string, headers: Record<string, string>, method = 'POST') =>
  handleMcpRequest(
    new Request(url, {
      method,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: method === 'POST' ? JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) : undefined,
    }),
  );

describe('the MCP endpoint against DNS rebinding (Host and Origin)', () => {
  it('refuses another host name or a web page of another origin with 403 and a JSON-RPC error, before looking at the key', async () => {
    configure({ APP_URL: 'http://localhost:3000' });
    const secret = await workspaceKey();
    const auth = { authorization: `Bearer ${secret}` };
    const url = 'http://localhost:3000/api/mcp';

    const rebound = await post(url, { ...auth, host: 'evil.example.com:3000', origin: 'http://evil.example.com:3000' });
    expect(rebound.status).toBe(403);
    expect(await rebound.json()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32000, message: expect.stringMatching(/does not answer to the host "evil\.example\.com:3000"/) },
      id: null,
    });
    // The right Host, but sent by another site's page (or a sandboxed one, whose origin is "null").
    for (const origin of ['http://evil.example.com', 'http://localhost:8080', 'https://localhost:3000', 'null']) {
      const response = await post(url, { ...auth, host: 'localhost:3000', origin });
      expect(response.status, origin).toBe(403);
      expect((await response.json()).error.message).toMatch(/Requests from web pages of .* are refused/);
    }
    // Refused whatever else the request is: no key, or a GET.
    expect((await post(url, { host: 'evil.example.com' })).status).toBe(403);
    expect((await post(url, { ...auth, host: 'localhost:3000', origin: 'http://evil.example.com' }, 'GET')).status).toBe(403);
    // What the same key gets at the app's own address.
    expect((await post(url, { ...auth, host: 'localhost:3000' })).status).toBe(200);
  });

  it('accepts a loopback install under any of the machine’s names, at its port for pages, and clients that send no Origin', async () => {
    configure({ APP_URL: 'http://127.0.0.1:3000' });
    const auth = { authorization: `Bearer ${await workspaceKey()}` };
    for (const host of ['127.0.0.1:3000', 'localhost:3000', '[::1]:3000', 'LOCALHOST', '127.0.0.1:4000']) {
      expect((await post(`http://${host}/api/mcp`, { ...auth, host })).status, host).toBe(200);
    }
    for (const origin of ['http://127.0.0.1:3000', 'http://localhost:3000', 'http://[::1]:3000']) {
      expect((await post('http://127.0.0.1:3000/api/mcp', { ...auth, host: '127.0.0.1:3000', origin })).status, origin).toBe(200);
    }
  });

  it('answers a public install at APP_URL’s name and the configured ones only: not at loopback names, not to pages of the wrong scheme', async () => {
    configure({ APP_URL: 'https://studio.example.com', MCP_ALLOWED_HOSTS: 'mcp.example.net, [fd00::1]', MCP_ALLOWED_ORIGINS: 'https://admin.example.net' });
    const auth = { authorization: `Bearer ${await workspaceKey()}` };
    const status = async (host: string, origin?: string) =>
      (await post(`https://${host}/api/mcp`, { ...auth, host, ...(origin ? { origin } : {}) })).status;
    expect(await status('studio.example.com')).toBe(200);
    expect(await status('mcp.example.net')).toBe(200);
    expect(await status('[fd00::1]:8443')).toBe(200);
    expect(await status('localhost')).toBe(403);
    expect(await status('127.0.0.1')).toBe(403);
    expect(await status('studio.example.com', 'https://studio.example.com')).toBe(200);
    expect(await status('studio.example.com', 'https://admin.example.net')).toBe(200);
    expect(await status('studio.example.com', 'http://studio.example.com')).toBe(403);
    expect(await status('studio.example.com', 'https://evil.example.com')).toBe(403);
  });

});
