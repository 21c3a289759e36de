import 'server-only';
import { z } from 'zod';
import { defineTool, ToolError, type ToolDefinition } from '@/lib/agent';
import { calendarBusy, githubComment, githubCreateIssue, githubListIssues, gmailDraft, gmailSend, syncBookingToCalendar } from './api';
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

const email = z.object({
  to: z.email(),
  subject: z.string().min(1).max(300),
  body: z.string().min(1).max(20_000),
});
const repo = z.string().regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, 'owner/name');

/**
 * The tools of connected accounts. Each names its connection (the provider), and a run's policy offers it
 * only when the conversation's workspace has that connection (lib/policy's `connections`). Writes go
 * through the policy's write gate like every write (lib/autonomy: the planet's autonomy decides).
 */
export const connectionTools: ToolDefinition[] = [
  defineTool({
    name: 'gmail_draft',
    description: 'Write an email as a draft in the connected Gmail mailbox, for the owner to review and send from Gmail. Nothing is sent.',
    input: email,
    kind: 'write',
    planet: 'crm',
    connection: 'google',
    handler: guarded(async (input, workspaceId) => {
      const { draftId } = await gmailDraft(workspaceId, input);
      return `Draft saved in Gmail (id ${draftId}); it has not been sent.`;
    }),
  }),
  defineTool({
    name: 'gmail_send',
    description: 'Send an email from the connected Gmail mailbox.',
    input: email,
    kind: 'write',
    planet: 'crm',
    connection: 'google',
    handler: guarded(async (input, workspaceId) => {
      const { messageId } = await gmailSend(workspaceId, input);
      return `Sent by Gmail (message id ${messageId}).`;
    }),
  }),
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
    name: 'calendar_create_event',
    description: "Put a booking in the owner's connected Google Calendar: creates its event, or updates it when the booking changed.",
    input: z.object({ appointmentId: z.uuid() }),
    kind: 'write',
    planet: 'booking',
    connection: 'google',
    handler: guarded(async (input, workspaceId) => {
      const event = await syncBookingToCalendar(workspaceId, input.appointmentId);
      return `${event.created ? 'Created' : 'Updated'} the calendar event ${event.eventId}.`;
    }),
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
  defineTool({
    name: 'github_create_issue',
    description: 'Open an issue in a repository of the connected GitHub account.',
    input: z.object({ repo, title: z.string().min(1).max(256), body: z.string().max(60_000).default('') }),
    kind: 'write',
    planet: 'web',
    connection: 'github',
    handler: guarded(async (input, workspaceId) => {
      const issue = await githubCreateIssue(workspaceId, input.repo, input.title, input.body);
      return `Opened issue #${issue.number}: ${issue.url}`;
    }),
  }),
  defineTool({
    name: 'github_comment',
    description: 'Comment on an issue or a pull request in a repository of the connected GitHub account.',
    input: z.object({ repo, number: z.number().int().positive(), body: z.string().min(1).max(60_000) }),
    kind: 'write',
    planet: 'web',
    connection: 'github',
    handler: guarded(async (input, workspaceId) => {
      const comment = await githubComment(workspaceId, input.repo, input.number, input.body);
      return `Commented: ${comment.url}`;
    }),
  }),
] as unknown as ToolDefinition[];

/** The connection tools of a planet (the daily analysis's agent gets these; the policy drops the unconnected). */
export const connectionToolsFor = (planet: string) => connectionTools.filter((tool) => tool.planet === planet);
