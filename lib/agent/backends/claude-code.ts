import 'server-only';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { BackendError, zeroUsage, type LoopBackend, type LoopHost, type ModelTurn } from './types';
import type { BackendErrorKind, Usage } from '@/lib/agent/types';

/**
 * The `claude-code` backend: a Claude Pro/Max subscription through the Claude Agent SDK, which drives the
 * Claude Code CLI (it honours ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY too). The CLI runs the loop; our
 * tools reach it as an in-process MCP server whose handlers call back into the runtime, so validation,
 * guards, write authorization and the PII boundary are the same as for every other backend.
 *
 * The SDK bundles the CLI (~450 MB): it is an optional install (`npm run setup:claude-code`), loaded only
 * here, by a name bundlers cannot follow, so it never lands in a serverless bundle.
 */
export const CLAUDE_AGENT_SDK = '@anthropic-ai/claude-agent-sdk';

const SERVER = 'multiverbe';

// The few shapes of the SDK this backend reads; typed here so the app compiles without the package.
interface SdkUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
}
type SdkMessage =
  | {
      type: 'assistant';
      session_id: string;
      parent_tool_use_id: string | null;
      error?: string;
      message: { id: string; content: Array<{ type: string; text?: string; id?: string; name?: string; input?: unknown }>; usage?: SdkUsage };
    }
  | { type: 'result'; subtype: string; session_id: string; is_error: boolean; result?: string; errors?: string[]; usage?: SdkUsage }
  | { type: string; session_id?: string };

interface ClaudeAgentSdk {
  query(params: { prompt: string; options: Record<string, unknown> }): AsyncIterable<SdkMessage>;
  createSdkMcpServer(options: { name: string; version?: string; tools: unknown[]; alwaysLoad?: boolean }): unknown;
  SYSTEM_PROMPT_DYNAMIC_BOUNDARY?: string;
}

let sdk: Promise<ClaudeAgentSdk> | undefined;

function loadSdk(): Promise<ClaudeAgentSdk> {
  const name = CLAUDE_AGENT_SDK;
  sdk ??= (import(/* webpackIgnore: true */ /* turbopackIgnore: true */ /* @vite-ignore */ name) as Promise<ClaudeAgentSdk>).catch((error) => {
    sdk = undefined;
    throw new BackendError('no_backend', `${CLAUDE_AGENT_SDK} is not installed: run npm run setup:claude-code.`, { cause: error });
  });
  return sdk;
}

export function claudeCodeBackend(opts: { model: string }): LoopBackend {
  return {
    id: 'claude-code',
    kind: 'loop',
    model: opts.model,
    run: async (host) => runClaudeCode(await loadSdk(), opts.model, host),
  };
}

async function runClaudeCode(sdk: ClaudeAgentSdk, model: string, host: LoopHost) {
  const aborter = new AbortController();
  const stopCli = () => aborter.abort();
  host.signal.addEventListener('abort', stopCli, { once: true });

  let stopRequested = false;
  const server = sdk.createSdkMcpServer({
    name: SERVER,
    version: '1.0.0',
    alwaysLoad: true,
    tools: host.prompt.tools.map((spec) => ({
      name: spec.name,
      description: spec.description,
      inputSchema: (z.fromJSONSchema(spec.inputSchema) as z.ZodObject).shape,
      annotations: { readOnlyHint: spec.kind === 'read' },
      handler: async (args: unknown) => {
        const out = await host.callTool({ id: randomUUID(), name: spec.name, input: args });
        if (out.stop) stopRequested = true;
        return { content: [{ type: 'text', text: out.content }], isError: out.isError };
      },
    })),
  });

  const boundary = sdk.SYSTEM_PROMPT_DYNAMIC_BOUNDARY;
  const { system, context } = host.prompt;
  const stderr: string[] = [];
  const messages = sdk.query({
    prompt: host.firstMessage,
    options: {
      abortController: aborter,
      model,
      // The stable part first and marked as such, so the CLI caches it across sessions too.
      systemPrompt: context ? (boundary ? [system, boundary, context] : `${system}\n\n${context}`) : system,
      tools: [],
      mcpServers: { [SERVER]: server },
      allowedTools: host.prompt.tools.map((t) => `mcp__${SERVER}__${t.name}`),
      permissionMode: 'dontAsk',
      settingSources: [],
      maxTurns: host.maxIterations,
      ...(host.resume ? { resume: host.resume } : {}),
      env: { ...process.env, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' },
      stderr: (data: string) => stderr.push(data),
      // After the finish tool (or a bound), the CLI stops instead of taking another turn.
      hooks: { PostToolUse: [{ hooks: [async () => (stopRequested ? { continue: false, stopReason: 'finished' } : {})] }] },
    },
  });

  // The SDK streams one message per content block; blocks of one API response share its id. A turn is
  // complete when the next one starts, when its tool results come back, or at the result.
  let current: { id: string; turn: ModelTurn } | undefined;
  const flush = () => {
    if (!current) return;
    const stop = host.onTurn(current.turn);
    current = undefined;
    if (stop === 'budget' || stop === 'max_iter') {
      stopRequested = true;
      aborter.abort();
    }
  };

  let sessionId: string | undefined;
  let usage: Usage | undefined;
  try {
    for await (const message of messages) {
      if (message.session_id) sessionId = message.session_id;
      if (message.type === 'assistant' && 'message' in message) {
        if (message.parent_tool_use_id) continue;
        if (message.error) throw new BackendError(errorKind(message.error), `Claude Code: ${message.error}${tail(stderr)}`);
        if (current?.id !== message.message.id) {
          flush();
          current = { id: message.message.id, turn: { text: '', toolCalls: [], usage: toUsage(message.message.usage), stop: 'end_turn' } };
        } else if (message.message.usage) {
          current.turn.usage = toUsage(message.message.usage);
        }
        for (const block of message.message.content) {
          if (block.type === 'text') current.turn.text += block.text ?? '';
          if (block.type === 'tool_use') {
            current.turn.toolCalls.push({ id: block.id ?? '', name: (block.name ?? '').replace(`mcp__${SERVER}__`, ''), input: block.input });
            current.turn.stop = 'tool_use';
          }
        }
      } else if (message.type === 'user') {
        flush();
      } else if (message.type === 'result' && 'subtype' in message) {
        flush();
        if (message.usage) usage = toUsage(message.usage);
        if (message.is_error && message.subtype !== 'error_max_turns') {
          const text = message.result ?? message.errors?.join('; ') ?? message.subtype;
          throw new BackendError(errorKind(text), `Claude Code failed: ${text}${tail(stderr)}`);
        }
      }
    }
    flush();
  } catch (error) {
    // Stopping the CLI ourselves (a bound, the finish tool) is how the run ends, not a failure.
    if (!(aborter.signal.aborted && stopRequested)) {
      if (error instanceof BackendError || host.signal.aborted) throw error;
      throw new BackendError('unavailable', `Claude Code failed: ${(error as Error).message}${tail(stderr)}`, { cause: error });
    }
  } finally {
    host.signal.removeEventListener('abort', stopCli);
  }
  return { sessionId, usage };
}

function toUsage(u: SdkUsage | undefined): Usage {
  if (!u) return zeroUsage();
  return {
    input_tokens: u.input_tokens ?? 0,
    output_tokens: u.output_tokens ?? 0,
    cache_read_input_tokens: u.cache_read_input_tokens ?? 0,
    cache_creation_input_tokens: u.cache_creation_input_tokens ?? 0,
  };
}

function errorKind(text: string): BackendErrorKind {
  if (/auth|401|403|login|credential|billing/i.test(text)) return 'auth';
  if (/rate.?limit|429/i.test(text)) return 'rate_limit';
  if (/overload|529|503/i.test(text)) return 'overloaded';
  return 'unavailable';
}

const tail = (stderr: string[]) => {
  const text = stderr.join('').trim();
  return text ? ` (${text.slice(-300)})` : '';
};
