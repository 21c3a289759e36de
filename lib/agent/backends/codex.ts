import 'server-only';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { BackendError, type Message, type ModelTurn, type Prompt, type TurnBackend } from './types';

/**
 * The `codex` backend: each model turn is one `codex exec --json` call on a Codex thread (resumed from
 * the second turn on, so Codex keeps the history). Codex has no way to call our tools itself, so the
 * tools are described in the prompt and the reply is forced into JSON (`--output-schema`) that names the
 * calls; the runtime's loop runs them like any other backend's. Read-only sandbox: Codex never touches
 * this machine.
 */
export function codexBackend(opts: { bin: string; model?: string; resume?: string }): TurnBackend {
  let threadId = opts.resume;
  let turns = 0;
  return {
    id: 'codex',
    kind: 'turns',
    model: opts.model ?? 'codex',
    async turn(prompt, history, signal): Promise<ModelTurn> {
      const input = threadId ? followUp(history) : firstPrompt(prompt, history);
      turns += 1;
      const dir = await mkdtemp(path.join(os.tmpdir(), 'mv-codex-'));
      try {
        const schemaFile = path.join(dir, 'reply.schema.json');
        await writeFile(schemaFile, JSON.stringify(replySchema(prompt)));
        const args = ['exec', '--json', '--skip-git-repo-check', '--sandbox', 'read-only', '--output-schema', schemaFile];
        if (opts.model) args.push('--model', opts.model);
        if (threadId) args.push('resume', threadId);
        args.push('--', input);
        const events = await runCodex(opts.bin, args, signal);
        let reply = '';
        const turn: ModelTurn = { text: '', toolCalls: [], stop: 'end_turn', usage: { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 } };
        for (const event of events) {
          if (event.type === 'thread.started' && typeof event.thread_id === 'string') threadId = event.thread_id;
          if (event.type === 'item.completed' && event.item?.type === 'agent_message') reply = event.item.text ?? '';
          if (event.type === 'turn.completed' && event.usage) {
            const cached = event.usage.cached_input_tokens ?? 0;
            turn.usage = {
              input_tokens: (event.usage.input_tokens ?? 0) - cached,
              output_tokens: event.usage.output_tokens ?? 0,
              cache_read_input_tokens: cached,
              cache_creation_input_tokens: 0,
            };
          }
          if (event.type === 'turn.failed' || event.type === 'error') {
            const message = event.error?.message ?? event.message ?? 'unknown error';
            throw new BackendError(/401|unauthori[sz]ed|login/i.test(message) ? 'auth' : /429|rate limit/i.test(message) ? 'rate_limit' : 'unavailable', `Codex failed: ${message}`);
          }
        }
        const parsed = parseReply(reply, turns);
        return { ...turn, ...parsed, stop: parsed.toolCalls.length ? 'tool_use' : 'end_turn', sessionId: threadId };
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}

interface CodexEvent {
  type: string;
  thread_id?: string;
  message?: string;
  item?: { type: string; text?: string };
  usage?: { input_tokens?: number; cached_input_tokens?: number; output_tokens?: number };
  error?: { message?: string };
}

function firstPrompt(prompt: Prompt, history: Message[]): string {
  const tools = prompt.tools
    .map((t) => `- ${t.name} (${t.kind}): ${t.description}\n  input JSON Schema: ${JSON.stringify(t.inputSchema)}`)
    .join('\n');
  const first = history[0]?.role === 'user' ? history[0].text : '';
  return [
    prompt.system,
    prompt.context,
    `You work only through these tools; never run commands or touch files. Reply with JSON: "tool_calls" lists the calls to make now, each with "name" and "arguments" (a JSON object written as a string); "message" is your text. Results come back in the next message. When the task is done, call ${prompt.finishToolName}.`,
    `Tools:\n${tools}`,
    first,
  ]
    .filter(Boolean)
    .join('\n\n');
}

// On a resumed thread Codex holds the history: send only what happened since its last reply.
function followUp(history: Message[]): string {
  const last = history.at(-1);
  if (last?.role === 'user') return last.text;
  if (last?.role !== 'tool') return '';
  const names = new Map(history.flatMap((m) => (m.role === 'assistant' ? m.toolCalls.map((c) => [c.id, c.name] as const) : [])));
  return `Tool results:\n${last.results.map((r) => `[${r.id}] ${names.get(r.id) ?? 'tool'} ${r.isError ? 'FAILED' : 'ok'}: ${r.content}`).join('\n')}`;
}

function replySchema(prompt: Prompt) {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['message', 'tool_calls'],
    properties: {
      message: { type: 'string' },
      tool_calls: {
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['name', 'arguments'],
          properties: { name: { type: 'string', enum: prompt.tools.map((t) => t.name) }, arguments: { type: 'string' } },
        },
      },
    },
  };
}

function parseReply(reply: string, turn: number): Pick<ModelTurn, 'text' | 'toolCalls'> {
  let parsed: { message?: unknown; tool_calls?: Array<{ name?: unknown; arguments?: unknown }> };
  try {
    parsed = JSON.parse(reply);
  } catch {
    return { text: reply, toolCalls: [] };
  }
  const toolCalls = (parsed.tool_calls ?? []).map((c, i) => {
    let input: unknown = c.arguments;
    try {
      input = JSON.parse(String(c.arguments));
    } catch {
      // left as the raw string: the validator turns it into an error the model can read
    }
    return { id: `codex_${turn}_${i + 1}`, name: String(c.name), input };
  });
  return { text: typeof parsed.message === 'string' ? parsed.message : '', toolCalls };
}

async function runCodex(bin: string, args: string[], signal: AbortSignal | undefined): Promise<CodexEvent[]> {
  const child = spawn(bin, args, { signal, stdio: ['ignore', 'pipe', 'pipe'] });
  const stderr: Buffer[] = [];
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  const events: CodexEvent[] = [];
  for await (const line of readline.createInterface({ input: child.stdout, crlfDelay: Infinity })) {
    if (!line.trim()) continue;
    try {
      events.push(JSON.parse(line) as CodexEvent);
    } catch {
      // not an event (Codex prints nothing else on stdout with --json, but a wrapper might)
    }
  }
  const code = await exited.catch((error: Error) => {
    if (signal?.aborted) throw error;
    throw new BackendError('unavailable', `Could not run ${bin}: ${error.message}`, { cause: error });
  });
  if (code !== 0 && !events.some((e) => e.type === 'turn.failed' || e.type === 'error')) {
    throw new BackendError('unavailable', `${bin} exited with code ${code}: ${Buffer.concat(stderr).toString('utf8').trim().slice(-300)}`);
  }
  return events;
}
