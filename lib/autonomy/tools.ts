import { ACTION_CONNECTION, ACTION_INPUTS, ACTION_PLANET, ACTION_TOOL, ACTION_TYPES, isConnectionAction, type ActionType } from '@/lib/actions';
import { defineTool, ToolError, type ToolDefinition } from '@/lib/agent';
import { submitAgentAction } from './decisions';

const DESCRIPTIONS: Record<ActionType, string> = {
  booking_reminder:
    'Send a customer a reminder of an upcoming appointment (once per appointment; needs their consent to messages; never during quiet hours 21:00-08:00).',
  waitlist_offer:
    'Offer the slot of a cancelled appointment to the waitlist: the first waiting customer (first in, first out) whose preferred window holds the whole slot gets a message.',
  win_back:
    'Invite back a customer who is past their own usual gap between visits (at least 3 visits, marketing consent, no VIPs, a daily cap per workspace).',
  deal_follow_up: 'Write to the customer of an open deal with no activity for 14 days, and count it as activity on the deal.',
  customer_reply: "Answer a customer in their conversation: the exact text goes to them on the channel they last wrote on (not after they said STOP; needs their consent to messages).",
  gmail_draft: 'Write an email as a draft in the connected Gmail mailbox, for the owner to review and send from Gmail. Nothing is sent.',
  gmail_send: 'Send an email from the connected Gmail mailbox.',
  calendar_create_event: "Put a booking in the owner's connected Google Calendar: creates its event, or updates it when the booking changed.",
  github_create_issue: 'Open an issue in a repository of the connected GitHub account.',
  github_comment: 'Comment on an issue or a pull request in a repository of the connected GitHub account.',
};

const OUTBOX_DONE =
  'Done: the message is in the outbox, ready to send. No SMS or email provider is connected yet, so it has not left: do not tell anyone it was sent. The owner sees it under "Done for you".';

/**
 * The action tools agents get. They live here, not in lib/actions, because every call goes through
 * autonomy: whether a call runs is decided before the handler by the write gate (`authorizeWrite`),
 * the handler only runs when the tier was `auto`, and even then `submitAction` re-reads the tier and
 * never executes above it.
 */
export const actionTools: Record<ActionType, ToolDefinition> = Object.fromEntries(
  ACTION_TYPES.map((type) => [
    type,
    defineTool({
      name: ACTION_TOOL[type],
      description: DESCRIPTIONS[type],
      input: ACTION_INPUTS[type],
      kind: 'write',
      planet: ACTION_PLANET[type],
      connection: isConnectionAction(type) ? ACTION_CONNECTION[type] : undefined,
      handler: async (input, ctx) => {
        const outcome = await submitAgentAction({ workspaceId: ctx.workspaceId, type, input, trigger: `agent:${ACTION_TOOL[type]}`, agentRunId: ctx.runId, now: new Date(), expect: 'auto' });
        switch (outcome.status) {
          case 'executed':
            return typeof outcome.result.summary === 'string' ? `Done: ${outcome.result.summary}` : OUTBOX_DONE;
          case 'proposed':
            return 'Autonomy changed meanwhile: it was proposed for the owner’s OK instead of done.';
          case 'duplicate':
            return `This was already ${outcome.existing} earlier; nothing new was done.`;
          case 'failed':
            throw new ToolError(`Not done: ${outcome.error}`);
          default:
            throw new ToolError(outcome.reason);
        }
      },
    }) as unknown as ToolDefinition,
  ]),
) as Record<ActionType, ToolDefinition>;
