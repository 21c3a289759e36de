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
