import { afterEach, describe, expect, it } from 'vitest';
import { config, resetConfigForTests } from './index';

const PAIRS = ['INNGEST_EVENT_KEY', 'INNGEST_SIGNING_KEY', 'NEXT_PUBLIC_SUPABASE_URL', 'NEXT_PUBLIC_SUPABASE_ANON_KEY'] as const;
const saved = Object.fromEntries(PAIRS.map((name) => [name, process.env[name]]));

/** The configuration read with only `env` among the paired settings. */
function configWith(env: Partial<Record<(typeof PAIRS)[number], string | undefined>>) {
  for (const name of PAIRS) delete process.env[name];
  Object.assign(process.env, env);
  resetConfigForTests();
  return config();
}

afterEach(() => {
  for (const name of PAIRS) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  resetConfigForTests();
});

describe('settings that only work together', () => {
  it('refuses half of the Inngest keys instead of quietly running the local executor', () => {
    expect(() => configWith({ INNGEST_EVENT_KEY: 'evt' })).toThrow(/INNGEST_EVENT_KEY and INNGEST_SIGNING_KEY go together/);
    expect(() => configWith({ INNGEST_SIGNING_KEY: 'signkey-prod-1' })).toThrow(/INNGEST_EVENT_KEY and INNGEST_SIGNING_KEY go together/);
    expect(configWith({ INNGEST_EVENT_KEY: 'evt', INNGEST_SIGNING_KEY: 'signkey-prod-1' }).inngestCloud).toBe(true);
    expect(configWith({}).inngestCloud).toBe(false);
  });

  it('refuses a Supabase URL without its anon key', () => {
    expect(() => configWith({ NEXT_PUBLIC_SUPABASE_URL: 'https://demo.supabase.co' })).toThrow(/NEXT_PUBLIC_SUPABASE_URL needs NEXT_PUBLIC_SUPABASE_ANON_KEY/);
    expect(configWith({ NEXT_PUBLIC_SUPABASE_URL: 'https://demo.supabase.co', NEXT_PUBLIC_SUPABASE_ANON_KEY: 'anon' }).supabaseAuth).toBe(true);
  });
});

describe('the MCP endpoint’s allowed hosts and origins', () => {
  const names = ['APP_URL', 'MCP_ALLOWED_HOSTS', 'MCP_ALLOWED_ORIGINS'] as const;
  const before = Object.fromEntries(names.map((name) => [name, process.env[name]]));
  const mcpWith = (env: Partial<Record<(typeof names)[number], string>>) => {
    for (const name of names) delete process.env[name];
    Object.assign(process.env, env);
    resetConfigForTests();
    return config().mcpAllowed;
  };
  afterEach(() => {
    for (const name of names) {
      if (before[name] === undefined) delete process.env[name];
      else process.env[name] = before[name];
    }
  });

  it('are APP_URL’s (every loopback name on a loopback install) plus the configured ones, normalised', () => {
    expect(mcpWith({ APP_URL: 'http://localhost:3000' })).toEqual({
      hosts: ['localhost', '127.0.0.1', '[::1]'],
      origins: ['http://localhost:3000', 'http://127.0.0.1:3000', 'http://[::1]:3000'],
    });
    expect(mcpWith({ APP_URL: 'https://Studio.Example.com/app', MCP_ALLOWED_HOSTS: ' MCP.example.net,,[FD00::1] ', MCP_ALLOWED_ORIGINS: 'https://admin.example.net/' })).toEqual({
      hosts: ['studio.example.com', 'mcp.example.net', '[fd00::1]'],
      origins: ['https://studio.example.com', 'https://admin.example.net'],
    });
  });

  it('refuses malformed entries at start-up, saying what to write', () => {
    expect(() => mcpWith({ MCP_ALLOWED_HOSTS: 'mcp.example.net:8443' })).toThrow(/MCP_ALLOWED_HOSTS.*"mcp\.example\.net:8443" is not a host name/s);
    expect(() => mcpWith({ MCP_ALLOWED_HOSTS: 'https://mcp.example.net' })).toThrow(/is not a host name/);
    expect(() => mcpWith({ MCP_ALLOWED_ORIGINS: 'admin.example.net' })).toThrow(/MCP_ALLOWED_ORIGINS.*"admin\.example\.net" is not an origin/s);
    expect(() => mcpWith({ MCP_ALLOWED_ORIGINS: 'https://admin.example.net/settings' })).toThrow(/is not an origin/);
  });
});
