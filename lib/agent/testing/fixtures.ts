import { randomUUID } from 'node:crypto';
import { proposeOnly, type RunPolicy } from '@/lib/agent';
import { resetConfigForTests } from '@/lib/config';
import type { Database } from '@/lib/db';

/** A run policy for tests and benchmarks: `names` are the known names of every workspace; writes are only proposed unless overridden. */
export function testPolicy({ names = [], ...over }: Partial<RunPolicy> & { names?: string[] } = {}): RunPolicy {
  return { knownNames: async () => names, authorizeWrite: proposeOnly, ...over };
}

/** A person and their personal workspace (created by the sign-up trigger), on the given plan. */
export async function createTestWorkspace(db: Database, plan: 'free' | 'pro' | 'business' = 'free') {
  const email = `owner-${randomUUID().slice(0, 8)}@example.test`;
  const [user] = await db.query<{ id: string }>(`insert into auth.users (email) values ($1) returning id`, [email]);
  const [ws] = await db.query<{ id: string }>(`update public.workspaces set plan = $2 where owner_id = $1 and is_personal returning id`, [user!.id, plan]);
  return { userId: user!.id, email, workspaceId: ws!.id };
}

const MODEL_ENV = [
  'MODEL_BACKEND',
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_BASE_URL',
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'CODEX_BIN',
  'AGENT_MAX_RETRIES',
  'CLAUDE_CONFIG_DIR',
  'CLAUDE_CODE_OAUTH_TOKEN',
] as const;

/**
 * Sets the model settings for a test (unset keys are removed, so nothing leaks in from the machine) and
 * re-reads the configuration. Returns a function that restores the previous values.
 */
export function useFakeModelEnv(values: Partial<Record<(typeof MODEL_ENV)[number], string>>): () => void {
  const saved = Object.fromEntries(MODEL_ENV.map((k) => [k, process.env[k]]));
  for (const key of MODEL_ENV) {
    if (values[key] === undefined) delete process.env[key];
    else process.env[key] = values[key];
  }
  resetConfigForTests();
  return () => {
    for (const key of MODEL_ENV) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
    resetConfigForTests();
  };
}
