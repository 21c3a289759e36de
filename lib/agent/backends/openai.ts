import 'server-only';
import OpenAI from 'openai';
import { BackendError, type Message, type ModelTurn, type Prompt, type TurnBackend } from './types';

const clients = new Map<string, OpenAI>();

function clientFor(apiKey: string, baseURL: string | undefined, maxRetries: number): OpenAI {
  const id = `${baseURL ?? ''}\n${maxRetries}\n${apiKey}`;
  let client = clients.get(id);
  if (!client) {
    // Like Anthropic's, the SDK retries 408/409/429/5xx and honours `retry-after`.
    client = new OpenAI({ apiKey, baseURL: baseURL ?? null, maxRetries });
    clients.set(id, client);
  }
  return client;
}

export function openaiBackend(opts: { apiKey: string; baseURL?: string; model: string; maxRetries: number }): TurnBackend {
  const client = clientFor(opts.apiKey, opts.baseURL, opts.maxRetries);
  return {
    id: 'openai',
    kind: 'turns',
    model: opts.model,
    async turn(prompt, history, signal): Promise<ModelTurn> {
      let response: OpenAI.ChatCompletion;
      try {
        response = await client.chat.completions.create(openaiRequest(prompt, history), { signal });
      } catch (error) {
        throw openaiError(error);
      }
      const choice = response.choices[0];
      const toolCalls: ModelTurn['toolCalls'] = [];
      for (const call of choice?.message.tool_calls ?? []) {
        if (call.type !== 'function') continue;
        toolCalls.push({ id: call.id, name: call.function.name, input: parseArguments(call.function.arguments) });
      }
      const cached = response.usage?.prompt_tokens_details?.cached_tokens ?? 0;
      return {
        text: choice?.message.content ?? '',
        toolCalls,
        stop: choice?.finish_reason ?? 'stop',
        usage: {
          // OpenAI counts cached tokens inside prompt_tokens; the runtime keeps them apart.
          input_tokens: (response.usage?.prompt_tokens ?? 0) - cached,
          output_tokens: response.usage?.completion_tokens ?? 0,
          cache_read_input_tokens: cached,
          cache_creation_input_tokens: 0,
        },
      };
    },
  };
}

/** OpenAI caches any repeated prefix by itself: the stable system message first, the run's context after it. */
export function openaiRequest(prompt: Prompt, history: Message[]): OpenAI.ChatCompletionCreateParamsNonStreaming {
  const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'system', content: prompt.system }];
  if (prompt.context) messages.push({ role: 'system', content: prompt.context });
  for (const message of history) {
    if (message.role === 'user') messages.push({ role: 'user', content: message.text });
    else if (message.role === 'assistant') {
      messages.push({
        role: 'assistant',
        content: message.text || null,
        ...(message.toolCalls.length
          ? {
              tool_calls: message.toolCalls.map((c) => ({
                id: c.id,
                type: 'function' as const,
                function: { name: c.name, arguments: JSON.stringify(c.input) },
              })),
            }
          : {}),
      });
    } else {
      for (const r of message.results) {
        messages.push({ role: 'tool', tool_call_id: r.id, content: r.isError ? `[error] ${r.content}` : r.content });
      }
    }
  }
  return {
    model: prompt.model,
    max_completion_tokens: prompt.maxTokens,
    tools: prompt.tools.map((t) => ({
      type: 'function' as const,
      function: { name: t.name, description: t.description, parameters: t.inputSchema },
    })),
    messages,
  };
}

// Malformed arguments reach the validator as a string, which rejects them with a message the model can use.
function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function openaiError(error: unknown): unknown {
  if (error instanceof OpenAI.APIUserAbortError) return error;
  if (error instanceof OpenAI.APIConnectionError) {
    return new BackendError('network', `Could not reach the OpenAI API (${error.message}).`, { cause: error });
  }
  if (!(error instanceof OpenAI.APIError)) return error;
  const status = error.status ?? 0;
  if (status === 401 || status === 403) {
    return new BackendError('auth', `OpenAI refused the API key (${status}): check OPENAI_API_KEY. ${error.message}`, { cause: error });
  }
  if (status === 429) return new BackendError('rate_limit', `OpenAI is rate-limiting this key and retries did not help: ${error.message}`, { cause: error });
  if (status === 503 || status === 529) return new BackendError('overloaded', `OpenAI is overloaded; retries did not help: ${error.message}`, { cause: error });
  if (status >= 500) return new BackendError('unavailable', `OpenAI failed (${status}): ${error.message}`, { cause: error });
  return new BackendError('bad_request', `OpenAI rejected the request (${status}): ${error.message}`, { cause: error });
}
