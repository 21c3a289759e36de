import 'server-only';
import { existsSync, accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { config } from '@/lib/config';
import type { BackendId } from '@/lib/agent/types';
import { anthropicBackend } from './anthropic';
import { CLAUDE_AGENT_SDK, claudeCodeBackend } from './claude-code';
import { codexBackend } from './codex';
import { OFFLINE_LABEL, offlineBackend } from './offline';
import { openaiBackend } from './openai';
import type { ModelBackend } from './types';

export const BACKEND_LABELS: Record<BackendId, string> = {
  anthropic: 'Anthropic API',
  'claude-code': 'Claude subscription (Claude Code)',
  openai: 'OpenAI API',
  codex: 'Codex CLI',
  offline: OFFLINE_LABEL,
};

interface Availability {
  available: boolean;
  /** Why it is or is not available, in words an admin can act on. */
  detail: string;
}

function availability(id: BackendId, apiKey?: string, explicit = false): Availability {
  const cfg = config();
  switch (id) {
    case 'anthropic':
      return apiKey || cfg.ANTHROPIC_API_KEY
        ? { available: true, detail: `ANTHROPIC_API_KEY is set${cfg.ANTHROPIC_BASE_URL ? ` (endpoint ${cfg.ANTHROPIC_BASE_URL})` : ''}` }
        : { available: false, detail: 'ANTHROPIC_API_KEY is not set' };
    case 'openai':
      return cfg.OPENAI_API_KEY ? { available: true, detail: 'OPENAI_API_KEY is set' } : { available: false, detail: 'OPENAI_API_KEY is not set' };
    case 'claude-code': {
      if (!claudeAgentSdkInstalled()) {
        return { available: false, detail: `${CLAUDE_AGENT_SDK} is not installed (optional: npm run setup:claude-code)` };
      }
      if (claudeLoginPresent()) return { available: true, detail: 'a Claude login is present' };
      // A login kept in the macOS keychain cannot be seen from here: when chosen explicitly, the CLI decides.
      return explicit
        ? { available: true, detail: 'installed; the Claude Code CLI uses its own login' }
        : { available: false, detail: 'no Claude login found (run `claude login`, set CLAUDE_CODE_OAUTH_TOKEN, or choose claude-code explicitly)' };
    }
    case 'codex':
      return findOnPath(cfg.CODEX_BIN)
        ? { available: true, detail: `${cfg.CODEX_BIN} is installed` }
        : { available: false, detail: `${cfg.CODEX_BIN} is not on PATH` };
    case 'offline':
      return { available: true, detail: 'always available; needs no network' };
  }
}

export interface BackendChoice {
  id: BackendId;
  available: boolean;
  /** What picked it: the agent's or workspace's setting, MODEL_BACKEND, or the automatic rule. */
  source: 'setting' | 'environment' | 'automatic';
  /** Why this one, in words an admin can act on (English, like the rest of /api/health). */
  reason: string;
}

/**
 * Which backend runs: an explicit choice (agent or workspace setting, else MODEL_BACKEND) wins; otherwise
 * anthropic with an API key, claude-code with a Claude login, else offline.
 */
export function chooseBackend(explicit?: BackendId, apiKey?: string): BackendChoice {
  const cfg = config();
  const chosen = explicit ?? cfg.MODEL_BACKEND;
  if (chosen) {
    const a = availability(chosen, apiKey, true);
    const source = explicit ? 'chosen for this agent or workspace' : 'MODEL_BACKEND';
    return { id: chosen, available: a.available, source: explicit ? 'setting' : 'environment', reason: `${source}; ${a.detail}` };
  }
  for (const id of ['anthropic', 'claude-code'] as const) {
    const a = availability(id, apiKey);
    if (a.available) return { id, available: true, source: 'automatic', reason: `automatic: ${a.detail}` };
  }
  return { id: 'offline', available: true, source: 'automatic', reason: 'automatic: no API key and no Claude login, so the offline model runs' };
}

export interface BackendsReport {
  active: BackendId;
  activeLabel: string;
  available: boolean;
  source: BackendChoice['source'];
  reason: string;
  /** `defaultModel`: what runs when an agent names no model (null: the backend picks, or has none). */
  backends: Array<{ id: BackendId; label: string; defaultModel: string | null } & Availability>;
}

function defaultModelOf(id: BackendId): string | null {
  const cfg = config();
  if (id === 'anthropic' || id === 'claude-code') return cfg.CLAUDE_MODEL;
  if (id === 'openai') return cfg.OPENAI_MODEL;
  if (id === 'codex') return cfg.CODEX_MODEL ?? null;
  return null;
}

/** For /api/health and the UI: the default backend, why, and what each backend needs. */
export function describeBackends(): BackendsReport {
  const choice = chooseBackend();
  return {
    active: choice.id,
    activeLabel: BACKEND_LABELS[choice.id],
    available: choice.available,
    source: choice.source,
    reason: choice.reason,
    backends: (Object.keys(BACKEND_LABELS) as BackendId[]).map((id) => ({ id, label: BACKEND_LABELS[id], defaultModel: defaultModelOf(id), ...availability(id) })),
  };
}

export function createBackend(
  id: BackendId,
  opts: { model?: string; apiKey?: string; essentialReadTools?: Array<{ name: string; input: unknown }>; resume?: string },
): ModelBackend {
  const cfg = config();
  switch (id) {
    case 'anthropic':
      return anthropicBackend({
        apiKey: (opts.apiKey ?? cfg.ANTHROPIC_API_KEY)!,
        baseURL: cfg.ANTHROPIC_BASE_URL,
        model: opts.model ?? cfg.CLAUDE_MODEL,
        maxRetries: cfg.AGENT_MAX_RETRIES,
      });
    case 'openai':
      return openaiBackend({ apiKey: cfg.OPENAI_API_KEY!, baseURL: cfg.OPENAI_BASE_URL, model: opts.model ?? cfg.OPENAI_MODEL, maxRetries: cfg.AGENT_MAX_RETRIES });
    case 'claude-code':
      return claudeCodeBackend({ model: opts.model ?? cfg.CLAUDE_MODEL });
    case 'codex':
      return codexBackend({ bin: cfg.CODEX_BIN, model: opts.model ?? cfg.CODEX_MODEL, resume: opts.resume });
    case 'offline':
      return offlineBackend(opts.essentialReadTools ?? []);
  }
}

// Resolved from the app's root by a name held in a variable, so bundlers neither trace nor bundle it.
function claudeAgentSdkInstalled(): boolean {
  try {
    createRequire(path.join(process.cwd(), 'package.json')).resolve(CLAUDE_AGENT_SDK);
    return true;
  } catch {
    return false;
  }
}

function claudeLoginPresent(): boolean {
  if (process.env.CLAUDE_CODE_OAUTH_TOKEN) return true;
  const dir = process.env.CLAUDE_CONFIG_DIR ?? path.join(os.homedir(), '.claude');
  return existsSync(path.join(dir, '.credentials.json'));
}

function findOnPath(bin: string): boolean {
  const candidates = bin.includes(path.sep) ? [bin] : (process.env.PATH ?? '').split(path.delimiter).map((dir) => path.join(dir, bin));
  return candidates.some((file) => {
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}
