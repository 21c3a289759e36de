import 'server-only';
import { z } from 'zod';
import { defineTool, ToolError, type ToolDefinition } from '@/lib/agent';
import { calendarBusy, githubListIssues } from './api';
import { ConnectionError } from './tokens';

/** A provider's failure as the model should read it (a reconnect is for the owner, not for retrying). */
const guarded =
  <I, O>(fn: (input: I, workspaceId: string) => Promise<O>) =>
  async (input: I, ctx: { workspaceId: string }) => {
    try {
      return await fn(input, ctx.workspaceId);
    } catch (error) {
      if (error instanceof ConnectionError) {
        throw new ToolError(error.kind === 'reconnect' ? `Not done: the connection must be made again by the owner in Settings → Connections (${error.message})` : `Not done: ${error.message}`);
      }
      throw error;
    }
  };

const repo = z.string().regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, 'owner/name');

/**
 * The read tools of connected accounts. Each names its connection (the provider), and a run's policy offers
 * it only when the conversation's workspace has that connection (lib/policy's `connections`). The writes
 * (Gmail, Calendar, GitHub) are actions (lib/actions' CONNECTION_ACTION_TYPES), whose tools lib/autonomy
 * gives: proposed for the owner's OK, done, or refused as the planet's autonomy says.
 */
export const connectionTools: ToolDefinition[] = [
  defineTool({
    name: 'calendar_busy',
    description: "List the busy events of the owner's connected Google Calendar between two instants (ISO 8601).",
    input: z.object({ from: z.iso.datetime({ offset: true }), to: z.iso.datetime({ offset: true }) }),
    kind: 'read',
    planet: 'booking',
    connection: 'google',
    handler: guarded(async (input, workspaceId) => calendarBusy(workspaceId, new Date(input.from), new Date(input.to))),
  }),
  defineTool({
    name: 'github_list_issues',
    description: 'List issues and pull requests of a repository of the connected GitHub account.',
    input: z.object({ repo, state: z.enum(['open', 'closed', 'all']).default('open') }),
    kind: 'read',
    planet: 'web',
    connection: 'github',
    handler: guarded(async (input, workspaceId) => githubListIssues(workspaceId, input.repo, input.state)),
  }),
] as unknown as ToolDefinition[];

/** The connection read tools of a planet (the daily analysis's agent gets these; the policy drops the unconnected). */
export const connectionToolsFor = (planet: string) => connectionTools.filter((tool) => tool.planet === planet);
