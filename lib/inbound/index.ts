/**
 * Replies come back (docs/replies.md): a customer's SMS or WhatsApp (Twilio's webhook, signature checked
 * with the SDK) or email (a raw message posted to the workspace's secret URL, parsed with mailparser)
 * lands in that customer's conversation, where the workspace's agents answer as in chat; an agent's
 * answer there is the `customer_reply` action, which autonomy proposes, sends or refuses. STOP and its
 * Italian equivalents revoke consent at once, with one confirmation.
 */
export { EMAIL_MAX_BYTES, issueEmailInboundUrl, receiveEmail, replyAddress, replyText, type EmailInbound } from './email';
export { landInbound, type InboundMessage, type Landed, type Unanswered } from './land';
export { sendAgentMessage, type CustomerReplyState } from './reply';
export { isStopRequest, normalizeForStop, STOP_WORDS, stopConfirmation } from './stop';
export { receiveTwilio, twilioInboundPath, twilioInboundUrl, type TwilioInbound } from './twilio';
