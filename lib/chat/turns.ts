import type { AuthorKind } from './kinds';

/**
 * Who reacts to a message, in which order: a fixed, deterministic policy (no model call, no
 * scoring beyond the agents' own declarations).
 *
 * - Agents addressed by the message (mentioned, or the other agents of a side thread) answer, all of
 *   them, first and only.
 * - A message by an agent wakes only the agents it addresses: agents do not chatter at each other
 *   unasked (the loop guard is the backstop when they address each other).
 * - A person's message nobody is addressed in always gets an answer, as a queue of single turns: a
 *   later turn runs only if every earlier one passed.
 *   - A narrow question (every domain it touches belongs to one specialist): that specialist first,
 *     then the generalists.
 *   - A cross-domain question (no one specialist covers it): the generalists first, then the
 *     matching specialists.
 *   - Nothing matches: the fixed fallback order.
 *   Everyone else follows in the fallback order, so someone always answers: never silence.
 *
 * An agent's domains are its declared capabilities plus its role; an agent declaring no capability
 * is a generalist. The fallback order is generalists first, then specialists, each in the order they
 * joined the conversation.
 */

export interface TurnCandidate {
  agentId: string;
  role: string;
  capabilities: string[];
}

export type TurnReason = 'addressed' | 'specialist' | 'generalist' | 'fallback';

export interface Turn {
  agentId: string;
  /** 0 runs now; n runs only if turns 0..n-1 passed. */
  turn: number;
  reason: TurnReason;
}

export interface TurnInput {
  text: string;
  authorKind: AuthorKind;
  /** Addressed agents' ids, in the order they were addressed. */
  addressed: string[];
  /** The agents that could react (not the author), in the order they joined. */
  candidates: TurnCandidate[];
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A domain term appears as whole words (a trailing plural s/es allowed), in any case. */
function mentionsTerm(text: string, term: string): boolean {
  const words = term.trim().split(/\s+/).map(escape).join('\\s+');
  return new RegExp(`(?<![\\p{L}\\p{N}])${words}(?:s|es)?(?![\\p{L}\\p{N}])`, 'iu').test(text);
}

const domainsOf = (agent: TurnCandidate) =>
  [...new Set([...agent.capabilities, agent.role].map((t) => t.trim().toLowerCase()).filter(Boolean))];

export function decideTurns({ text, authorKind, addressed, candidates }: TurnInput): Turn[] {
  const known = new Set(candidates.map((c) => c.agentId));
  const addressedKnown = [...new Set(addressed)].filter((id) => known.has(id));
  if (addressedKnown.length > 0) return addressedKnown.map((agentId) => ({ agentId, turn: 0, reason: 'addressed' }));
  if (authorKind === 'agent') return [];

  const generalists = candidates.filter((c) => c.capabilities.length === 0);
  const specialists = candidates.filter((c) => c.capabilities.length > 0);
  const fallback = [...generalists, ...specialists];

  const matches = specialists
    .map((agent, index) => ({ agent, index, domains: domainsOf(agent).filter((d) => mentionsTerm(text, d)) }))
    .filter((m) => m.domains.length > 0)
    .sort((a, b) => b.domains.length - a.domains.length || a.index - b.index);

  const order: { agent: TurnCandidate; reason: TurnReason }[] = [];
  if (matches.length > 0) {
    const touched = new Set(matches.flatMap((m) => m.domains));
    const best = matches[0]!;
    const narrow = [...touched].every((d) => best.domains.includes(d));
    if (narrow) {
      order.push({ agent: best.agent, reason: 'specialist' });
      for (const agent of generalists) order.push({ agent, reason: 'generalist' });
    } else {
      for (const agent of generalists) order.push({ agent, reason: 'generalist' });
      for (const m of matches) order.push({ agent: m.agent, reason: 'specialist' });
    }
  }
  for (const agent of fallback) {
    if (!order.some((o) => o.agent === agent)) order.push({ agent, reason: 'fallback' });
  }
  return order.map((o, turn) => ({ agentId: o.agent.agentId, turn, reason: o.reason }));
}
