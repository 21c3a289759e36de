import 'server-only';
import Anthropic from '@anthropic-ai/sdk';
import { BackendError, type Message, type ModelTurn, type Prompt, type TurnBackend } from './types';

const EPHEMERAL = { type: 'ephemeral' } as const;

// One client per key and endpoint, so connections are kept alive from run to run.
const clients = new Map<string, Anthropic>();

function clientFor(apiKey: string, baseURL: string | undefined, maxRetries: number): Anthropic {
  const id = `${baseURL ?? ''}\n${maxRetries}\n${apiKey}`;
  let client = clients.get(id);
  if (!client) {
    // The SDK retries 408/409/429/5xx itself, waiting what `retry-after` says, with backoff otherwise.
    client = new Anthropic({ apiKey, baseURL: baseURL ?? null, maxRetries });
    clients.set(id, client);
  }
  return client;
}

export function anthropicBackend(opts: { apiKey: string; baseURL?: string; model: string; maxRetries: number }): TurnBackend {
  const client = clientFor(opts.apiKey, opts.baseURL, opts.maxRetries);
  const requests = new AnthropicRequests();
  return {
    id: 'anthropic',
    kind: 'turns',
    model: opts.model,
    async turn(prompt, history, signal): Promise<ModelTurn> {
      let response: Anthropic.Message;
      try {
        response = await client.messages.create(requests.next(prompt, history), { signal });
      } catch (error) {
        throw anthropicError(error);
      }
      let text = '';
      const toolCalls: ModelTurn['toolCalls'] = [];
      for (const block of response.content) {
        if (block.type === 'text') text += block.text;
        else if (block.type === 'tool_use') toolCalls.push({ id: block.id, name: block.name, input: block.input });
      }
      const u = response.usage;
      return {
        text,
        toolCalls,
        stop: response.stop_reason ?? 'end_turn',
        usage: {
          input_tokens: u.input_tokens,
          output_tokens: u.output_tokens,
          cache_read_input_tokens: u.cache_read_input_tokens ?? 0,
          cache_creation_input_tokens: u.cache_creation_input_tokens ?? 0,
        },
      };
    },
  };
}

/**
 * The requests of one run, in cache order: tools, then the stable system block carrying the first breakpoint,
 * then the run's context, then the conversation with a second breakpoint on its last block so each turn reads
 * the previous turn's prefix from the cache. Tool schemas arrive with sorted keys and in name order. The prompt
 * stays and the history only grows during a run, so each part is converted to the SDK's format once.
 */
class AnthropicRequests {
  private prompt: Prompt | undefined;
  private tools: Anthropic.Tool[] = [];
  private system: Anthropic.TextBlockParam[] = [];
  private readonly messages: Anthropic.MessageParam[] = [];

  next(prompt: Prompt, history: Message[]): Anthropic.MessageCreateParamsNonStreaming {
    if (prompt !== this.prompt) {
      this.prompt = prompt;
      this.tools = prompt.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema as Anthropic.Tool.InputSchema }));
      this.system = [{ type: 'text', text: prompt.system, cache_control: EPHEMERAL }];
      if (prompt.context) this.system.push({ type: 'text', text: prompt.context });
    }
    for (let i = this.messages.length; i < history.length; i++) this.messages.push(toAnthropic(history[i]!));
    const messages = this.messages.slice();
    const last = messages.at(-1);
    if (last && Array.isArray(last.content) && last.content.length > 0) {
      const content = last.content.slice();
      content[content.length - 1] = { ...content[content.length - 1]!, cache_control: EPHEMERAL } as Anthropic.ContentBlockParam;
      messages[messages.length - 1] = { ...last, content } as Anthropic.MessageParam;
    }
    return { model: prompt.model, max_tokens: prompt.maxTokens, tools: this.tools, system: this.system, messages };
  }
}

function toAnthropic(message: Message): Anthropic.MessageParam {
  switch (message.role) {
    case 'user':
      return { role: 'user', content: [{ type: 'text', text: message.text }] };
    case 'assistant': {
      const content: Anthropic.ContentBlockParam[] = message.text ? [{ type: 'text', text: message.text }] : [];
      for (const call of message.toolCalls) content.push({ type: 'tool_use', id: call.id, name: call.name, input: call.input });
      return { role: 'assistant', content };
    }
    case 'tool':
      return {
        role: 'user',
        content: message.results.map((r) => ({
          type: 'tool_result' as const,
          tool_use_id: r.id,
          content: r.content,
          ...(r.isError ? { is_error: true } : {}),
        })),
      };
  }
}

function anthropicError(error: unknown): unknown {
  if (error instanceof Anthropic.APIUserAbortError) return error;
  if (error instanceof Anthropic.APIConnectionError) {
    return new BackendError('network', `Could not reach the Anthropic API (${error.message}).`, { cause: error });
  }
  if (!(error instanceof Anthropic.APIError)) return error;
  const detail = error.apiMessage ?? error.message;
  const status = error.status ?? 0;
  if (status === 401 || status === 403) {
    return new BackendError('auth', `Anthropic refused the API key (${status}): check ANTHROPIC_API_KEY. ${detail}`, { cause: error });
  }
  if (status === 429) return new BackendError('rate_limit', `Anthropic is rate-limiting this key and retries did not help: ${detail}`, { cause: error });
  if (status === 529 || status === 503) return new BackendError('overloaded', `Anthropic is overloaded; retries did not help: ${detail}`, { cause: error });
  if (status >= 500) return new BackendError('unavailable', `Anthropic failed (${status}): ${detail}`, { cause: error });
  return new BackendError('bad_request', `Anthropic rejected the request (${status}): ${detail}`, { cause: error });
}
