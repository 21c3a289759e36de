import { z } from 'zod';
import { defineTool, ToolError } from '@/lib/agent';
import { reportOutcome, outcomeSchema } from './actions';
import { actionInputSchema } from './card';
import { publishResults } from './results';
import { RESULT_TYPES } from './types';

// Kind 'read' for the same reason as publish_artifact: it is the agent speaking in its conversation.
// A button that would act outside goes through the approval flow when clicked, not here.

export const publishResultTool = defineTool({
  name: 'publish_result',
  description: `Publish structured results (shown as rich cards) in a conversation you are a member of, instead of describing them in prose. Known types: ${RESULT_TYPES.join(', ')}; their data is validated. Name a template from the library to choose a layout (an unknown one falls back to the type's default). Buttons (actions) come back to you as a message whose cardEvent says which was clicked; say what came of it with report_outcome.`,
  input: z.object({
    conversationId: z.string().uuid(),
    message: z.string().max(2000).optional(),
    results: z
      .array(
        z.object({
          type: z.string().describe(`One of ${RESULT_TYPES.join(', ')}, or your own (shown as a generic card).`),
          template: z.string().max(64).optional(),
          data: z.record(z.string(), z.unknown()),
          actions: z.array(actionInputSchema).max(4).optional(),
        }),
      )
      .min(1)
      .max(10),
  }),
  kind: 'read',
  handler: async (input, ctx) => {
    if (!ctx.agentId) throw new ToolError('Only an agent can publish results.');
    const { message, cards } = await publishResults(ctx.agentId, { conversationId: input.conversationId, body: input.message, results: input.results });
    return { messageId: message.id, cards: cards.map((c) => ({ id: c.id, type: c.type, template: c.template, fallback: c.fallback ?? null })) };
  },
});

export const reportOutcomeTool = defineTool({
  name: 'report_outcome',
  description:
    'Say what came of a click on a button of one of your cards (a message carrying a cardEvent): the card shows it. Once per click, with the eventId of its cardEvent.',
  input: outcomeSchema.extend({ eventId: z.string().uuid() }),
  kind: 'read',
  handler: async ({ eventId, ...outcome }, ctx) => {
    if (!ctx.agentId) throw new ToolError('Only an agent can report what came of a click.');
    return reportOutcome(ctx.agentId, eventId, outcome);
  },
});
