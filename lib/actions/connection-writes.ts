import { z } from 'zod';
import { ConnectionError, githubComment, githubCreateIssue, gmailDraft, gmailSend, syncBookingToCalendar, type Provider } from '@/lib/connections';
import { DAY, iso } from './contact';
import { hashArgs } from './hash';
import { ACTION_PLANET, type ActionContext, type ConnectionActionDefinition, type ConnectionActionType, type Executed } from './types';

/** A proposal on a connected account waits this long for an OK. */
export const CONNECTION_APPROVAL_MS = 3 * DAY;

/** The longest text a connected-account write carries: what the owner approves must fit on its card whole. */
export const CONNECTION_TEXT_MAX = 4_000;

const text = z.string().trim().min(1).max(CONNECTION_TEXT_MAX);
const email = z.object({ to: z.email(), subject: z.string().trim().min(1).max(300), body: text });
const repo = z.string().regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, 'owner/name');

/** The connected account each write needs: its agent tool is offered only where the workspace has it. */
export const ACTION_CONNECTION: Record<ConnectionActionType, Provider> = {
  gmail_draft: 'google',
  gmail_send: 'google',
  calendar_create_event: 'google',
  github_create_issue: 'github',
  github_comment: 'github',
};

export const CONNECTION_ACTION_INPUTS = {
  gmail_draft: email,
  gmail_send: email,
  calendar_create_event: z.object({ appointmentId: z.uuid().describe('The booking to put in the calendar.') }),
  github_create_issue: z.object({ repo, title: z.string().trim().min(1).max(256), body: z.string().max(CONNECTION_TEXT_MAX).default('') }),
  github_comment: z.object({ repo, number: z.number().int().positive(), body: text }),
} satisfies Record<ConnectionActionType, z.ZodType>;

type Input<T extends ConnectionActionType> = z.infer<(typeof CONNECTION_ACTION_INPUTS)[T]>;

/**
 * Exact arguments whose own hash, with the day, names the proposal: the same call twice in a day is one
 * proposal, and the same email next week is a new one.
 */
function prepared(type: ConnectionActionType, { now }: ActionContext, args: Record<string, unknown>, details: Record<string, unknown>, key = hashArgs(type, args)) {
  return {
    ok: true as const,
    action: { type, planet: ACTION_PLANET[type], args, details, dedupeKey: `${type}:${key}:${now.toISOString().slice(0, 10)}`, expiresAt: new Date(now.getTime() + CONNECTION_APPROVAL_MS) },
  };
}

/** The provider's answer as the decision keeps it: a summary for the model, or the reason it failed (a reconnect is the owner's to do). */
async function calling(fn: () => Promise<Record<string, unknown> & { summary: string }>): Promise<Executed> {
  try {
    return { ok: true, result: { messageIds: [], ...(await fn()) } };
  } catch (error) {
    if (error instanceof ConnectionError) {
      return { ok: false, error: error.kind === 'reconnect' ? `The connection must be made again in Settings → Connections (${error.message})` : error.message };
    }
    return { ok: false, error: `The provider could not be reached: ${(error as Error).message}` };
  }
}

const emailArgs = (input: Input<'gmail_draft'>) => ({ to: input.to, subject: input.subject, message: input.body });
const emailOf = (args: Record<string, unknown>) => ({ to: String(args.to), subject: String(args.subject), body: String(args.message) });

const draft: ConnectionActionDefinition<Input<'gmail_draft'>> & { type: 'gmail_draft' } = {
  type: 'gmail_draft',
  async prepare(_tx, ctx, input) {
    return prepared('gmail_draft', ctx, emailArgs(input), { to: input.to, subject: input.subject });
  },
  perform: ({ workspace }, args) =>
    calling(async () => {
      const { draftId } = await gmailDraft(workspace.id, emailOf(args));
      return { draftId, summary: `Draft saved in Gmail (id ${draftId}); it has not been sent.` };
    }),
};

const send: ConnectionActionDefinition<Input<'gmail_send'>> & { type: 'gmail_send' } = {
  type: 'gmail_send',
  async prepare(_tx, ctx, input) {
    return prepared('gmail_send', ctx, emailArgs(input), { to: input.to, subject: input.subject });
  },
  perform: ({ workspace }, args) =>
    calling(async () => {
      const { messageId } = await gmailSend(workspace.id, emailOf(args));
      return { gmailMessageId: messageId, summary: `Sent by Gmail (message id ${messageId}).` };
    }),
};

const calendarEvent: ConnectionActionDefinition<Input<'calendar_create_event'>> & { type: 'calendar_create_event' } = {
  type: 'calendar_create_event',
  async prepare(tx, ctx, input) {
    const [booking] = await tx.query<{ starts_at: Date; ends_at: Date; status: string; service: string; customer: string }>(
      `select a.starts_at, a.ends_at, a.status, s.name as service, c.name as customer
         from public.appointments a
         join public.services s on s.workspace_id = a.workspace_id and s.id = a.service_id
         join public.customers c on c.workspace_id = a.workspace_id and c.id = a.customer_id
        where a.workspace_id = $1 and a.id = $2`,
      [ctx.workspace.id, input.appointmentId],
    );
    if (!booking) return { ok: false, reason: 'No such booking in this workspace.' };
    return prepared(
      'calendar_create_event',
      ctx,
      { appointmentId: input.appointmentId },
      { customerName: booking.customer, serviceName: booking.service, startsAt: iso(booking.starts_at), bookingStatus: booking.status },
      // The booking as it is now: once it moves or is cancelled, putting it in the calendar again is a new proposal.
      `${input.appointmentId}:${iso(booking.starts_at)}:${iso(booking.ends_at)}:${booking.status}`,
    );
  },
  perform: ({ workspace }, args) =>
    calling(async () => {
      const event = await syncBookingToCalendar(workspace.id, String(args.appointmentId));
      return { eventId: event.eventId, summary: `${event.created ? 'Created' : 'Updated'} the calendar event ${event.eventId}.` };
    }),
};

const issue: ConnectionActionDefinition<Input<'github_create_issue'>> & { type: 'github_create_issue' } = {
  type: 'github_create_issue',
  async prepare(_tx, ctx, input) {
    return prepared('github_create_issue', ctx, { repo: input.repo, title: input.title, message: input.body }, { repo: input.repo, title: input.title });
  },
  perform: ({ workspace }, args) =>
    calling(async () => {
      const opened = await githubCreateIssue(workspace.id, String(args.repo), String(args.title), String(args.message));
      return { issueNumber: opened.number, url: opened.url, summary: `Opened issue #${opened.number}: ${opened.url}` };
    }),
};

const comment: ConnectionActionDefinition<Input<'github_comment'>> & { type: 'github_comment' } = {
  type: 'github_comment',
  async prepare(_tx, ctx, input) {
    return prepared('github_comment', ctx, { repo: input.repo, number: input.number, message: input.body }, { repo: input.repo, number: input.number });
  },
  perform: ({ workspace }, args) =>
    calling(async () => {
      const posted = await githubComment(workspace.id, String(args.repo), Number(args.number), String(args.message));
      return { url: posted.url, summary: `Commented: ${posted.url}` };
    }),
};

/** Each `prepare` reads its input as its schema does (defaults applied), whoever submitted it: an agent's tool call or a direct caller. */
const parsing = <T extends ConnectionActionType>(action: ConnectionActionDefinition<Input<T>> & { type: T }): ConnectionActionDefinition<never> => ({
  ...action,
  async prepare(tx, ctx, raw) {
    const parsed = CONNECTION_ACTION_INPUTS[action.type].safeParse(raw);
    return parsed.success ? action.prepare(tx, ctx, parsed.data as Input<T>) : { ok: false, reason: `Invalid input: ${z.prettifyError(parsed.error)}` };
  },
});

export const CONNECTION_ACTIONS: Record<ConnectionActionType, ConnectionActionDefinition<never>> = {
  gmail_draft: parsing(draft),
  gmail_send: parsing(send),
  calendar_create_event: parsing(calendarEvent),
  github_create_issue: parsing(issue),
  github_comment: parsing(comment),
};
