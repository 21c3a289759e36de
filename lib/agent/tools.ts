import { z } from 'zod';
import { canonicalize } from './json';
import type { AgentTool, ToolKind } from './types';

/** What a handler knows about the run calling it. */
export interface ToolContext {
  workspaceId: string;
  runId: string;
  agentId?: string;
  planet: string;
  /** Fires when the run is cancelled or passes its deadline. */
  signal: AbortSignal;
}

export interface ToolDefinition<S extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  input: S;
  /** `input` as JSON Schema with sorted keys, computed once so every request carries the same bytes. */
  inputSchema: Record<string, unknown>;
  kind: ToolKind;
  planet?: string;
  /** The connection (e.g. `google_calendar`) the tool needs; checked by the run's policy (`connections`). */
  connection?: string;
  /** Returns the result for the model: a string as is, anything else as JSON. Throw to report a failure. */
  handler: (input: z.output<S>, ctx: ToolContext) => Promise<unknown>;
}

/** Whether a workspace has a connection (e.g. `google_calendar`): part of a run's policy. */
export type ConnectionCheck = (workspaceId: string, connection: string) => Promise<boolean>;

/** The tools a run offers: those whose connection the workspace has, or every tool when there is no check. */
export async function connectedTools(check: ConnectionCheck | undefined, workspaceId: string, tools: ToolDefinition[]): Promise<ToolDefinition[]> {
  if (!check) return tools;
  const needed = [...new Set(tools.flatMap((t) => (t.connection ? [t.connection] : [])))];
  const present = new Set<string>();
  for (const connection of needed) if (await check(workspaceId, connection)) present.add(connection);
  return tools.filter((t) => !t.connection || present.has(t.connection));
}

/** Thrown by a handler whose message is meant for the model as is. */
export class ToolError extends Error {}

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

// The one registry: every tool is defined once, agents pick from it with `toolsFor`.
const registry = new Map<string, ToolDefinition>();

/** Defines a tool and registers it centrally. Redefining a name replaces it (module reloads in development). */
export function defineTool<S extends z.ZodType>(def: Omit<ToolDefinition<S>, 'inputSchema'>): ToolDefinition<S> {
  if (!NAME.test(def.name)) throw new Error(`Tool name "${def.name}" must match ${NAME}`);
  const { $schema: _ignored, ...schema } = z.toJSONSchema(def.input) as Record<string, unknown>;
  if (schema.type !== 'object') throw new Error(`Tool "${def.name}" must take an object as input`);
  // Compiled once here (same results and errors, several times faster): every call of the tool is validated.
  const tool: ToolDefinition<S> = { ...def, input: z.compile(def.input), inputSchema: canonicalize(schema) };
  registry.set(tool.name, tool as unknown as ToolDefinition);
  return tool;
}

/** The registered tools an agent gets: the named ones, or those of a planet plus the planet-less ones. */
export function toolsFor(filter: { names?: string[]; planet?: string }): ToolDefinition[] {
  if (filter.names) {
    return filter.names.map((name) => {
      const tool = registry.get(name);
      if (!tool) throw new Error(`No tool named "${name}" is registered`);
      return tool;
    });
  }
  return [...registry.values()].filter((t) => !t.planet || t.planet === filter.planet);
}

/**
 * The seed contract's `Record<string, AgentTool>` as tool definitions (validated against their own JSON Schema).
 * Made for each run, so their schemas are not compiled: compiling costs more than the run's few calls save.
 */
export function fromAgentTools(tools: Record<string, AgentTool>): ToolDefinition[] {
  return Object.entries(tools).map(([name, tool]) => {
    const inputSchema = canonicalize({ ...(tool.schema.input_schema as Record<string, unknown>) });
    return {
      name,
      description: tool.schema.description ?? '',
      input: z.fromJSONSchema(inputSchema),
      inputSchema,
      kind: tool.kind,
      handler: async (input: unknown) => {
        const out = await tool.handler(input);
        if (out.isError) throw new ToolError(out.content);
        return out.content;
      },
    };
  });
}
