-- Writes on a connected account (Gmail draft and send, a booking in Google Calendar, a GitHub issue or
-- comment) are actions like the others (lib/actions' CONNECTION_ACTION_TYPES): proposed for the owner's OK,
-- done automatically, or refused, as the planet's autonomy says; each leaves its decision.
alter table public.agent_decisions drop constraint agent_decisions_action_type_check,
  add constraint agent_decisions_action_type_check
    check (action_type in ('booking_reminder', 'waitlist_offer', 'win_back', 'deal_follow_up', 'customer_reply',
                           'gmail_draft', 'gmail_send', 'calendar_create_event', 'github_create_issue', 'github_comment'));
alter table public.workspace_action_autonomy drop constraint workspace_action_autonomy_action_type_check,
  add constraint workspace_action_autonomy_action_type_check
    check (action_type in ('booking_reminder', 'waitlist_offer', 'win_back', 'deal_follow_up', 'customer_reply',
                           'gmail_draft', 'gmail_send', 'calendar_create_event', 'github_create_issue', 'github_comment'));
