import { zeroUsage, type Message, type ModelTurn, type TurnBackend } from './types';

export const OFFLINE_LABEL = 'offline model';

/**
 * The backend for machines with no model: no network, always the same answer. First turn: call the
 * essential read tools the caller named; second turn: `finish` with a summary of what they returned.
 * A finish tool that takes no `summary` (chat's `reply`) is not called with one it would refuse: the
 * summary ends the run as plain text, and the run's record shows no failed call that never happened.
 */
export function offlineBackend(essential: Array<{ name: string; input: unknown }>): TurnBackend {
  return {
    id: 'offline',
    kind: 'turns',
    model: 'offline',
    async turn(prompt, history): Promise<ModelTurn> {
      const read = new Set(prompt.tools.filter((t) => t.kind === 'read').map((t) => t.name));
      const calls = essential.filter((e) => read.has(e.name));
      const asked = history.filter((m) => m.role === 'assistant').flatMap((m) => m.toolCalls);
      if (asked.length === 0 && calls.length > 0) {
        return turn('', calls.map((c, i) => ({ id: `offline_${i + 1}`, name: c.name, input: c.input })));
      }
      const summary = summarize(history);
      const finish = prompt.tools.find((t) => t.name === prompt.finishToolName);
      const takesSummary = Boolean((finish?.inputSchema.properties as Record<string, unknown> | undefined)?.summary);
      if (!takesSummary || asked.some((c) => c.name === prompt.finishToolName)) return turn(summary, []);
      return turn('', [{ id: 'offline_finish', name: prompt.finishToolName, input: { summary } }]);
    },
  };
}

function turn(text: string, toolCalls: ModelTurn['toolCalls']): ModelTurn {
  return { text, toolCalls, usage: zeroUsage(), stop: toolCalls.length ? 'tool_use' : 'end_turn' };
}

function summarize(history: Message[]): string {
  const names = new Map<string, string>();
  const lines: string[] = [];
  for (const m of history) {
    if (m.role === 'assistant') for (const c of m.toolCalls) names.set(c.id, c.name);
    if (m.role === 'tool') {
      for (const r of m.results) {
        const name = names.get(r.id) ?? 'tool';
        const content = r.content.length > 600 ? `${r.content.slice(0, 600)}…` : r.content;
        lines.push(r.isError ? `- ${name}: could not be read (${content})` : `- ${name}: ${content}`);
      }
    }
  }
  const head = `Summary by the ${OFFLINE_LABEL} (no AI model is configured, so this only restates the data read).`;
  return lines.length ? `${head}\n${lines.join('\n')}` : `${head}\nNo data was read.`;
}
