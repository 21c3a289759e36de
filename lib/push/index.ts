/**
 * Web Push for "Approve from the lock screen" (docs/notifications.md): the server's VAPID keys, each
 * person's devices (public.push_subscriptions, RLS: a person's own only), and the push of a new
 * proposal to the devices of the people who may approve it, which the push-decision background function
 * sends. The notification's Approve and Ignore post to the decisions API like the Home's card does.
 */
export { endpointBodySchema, pushSubscriptionSchema, subscribe, subscriptionStatus, unsubscribe, type PushSubscriptionInput } from './subscriptions';
export { pushPayload, pushProposal, pushTargets, type PushOutcome, type PushPayload } from './send';
export { resetVapidForTests, vapidKeys, type VapidKeys } from './vapid';
