import type { z } from 'zod';
import type { Tx } from '@/lib/db';
import { customerReply, customerReplyInput } from './customer-reply';
import { dealFollowUp, dealFollowUpInput } from './deal-follow-up';
import { bookingReminder, bookingReminderInput } from './reminder';
import { CONNECTION_ACTION_INPUTS } from './connection-writes';
import type { ActionDefinition, ActionType, ActionWorkspace, MessageActionType } from './types';
import { waitlistOffer, waitlistOfferInput } from './waitlist';
import { winBack, winBackInput } from './win-back';

export const ACTIONS: Record<MessageActionType, ActionDefinition<never>> = {
  booking_reminder: bookingReminder,
  waitlist_offer: waitlistOffer,
  win_back: winBack,
  deal_follow_up: dealFollowUp,
  customer_reply: customerReply,
};

/** Each action's input as an agent (or a rule) gives it. */
export const ACTION_INPUTS: Record<ActionType, z.ZodType> = {
  booking_reminder: bookingReminderInput,
  waitlist_offer: waitlistOfferInput,
  win_back: winBackInput,
  deal_follow_up: dealFollowUpInput,
  customer_reply: customerReplyInput,
  ...CONNECTION_ACTION_INPUTS,
};

export async function loadActionWorkspace(tx: Tx, workspaceId: string): Promise<ActionWorkspace | null> {
  const [row] = await tx.query<{ id: string; name: string; time_zone: string; locale: ActionWorkspace['locale'] }>(
    `select id, name, time_zone, locale from public.workspaces where id = $1`,
    [workspaceId],
  );
  return row ? { id: row.id, name: row.name, timeZone: row.time_zone, locale: row.locale } : null;
}
