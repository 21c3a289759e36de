import type { BackgroundFunction } from '../define';
import { abandonStalledThreadsJob } from './abandon-stalled-threads';
import { announceClaimableDeliveriesJob } from './announce-claimable-deliveries';
import { analyzePlanetData, analyzePlanetDataSchedule } from './analyze-planet-data';
import { bookingReminderSmart } from './booking-reminder-smart';
import { cleanupExpired } from './cleanup-expired';
import { deliverAccountMail } from './deliver-account-mail';
import { deliverMessages } from './deliver-messages';
import { expireCardApprovals } from './expire-card-approvals';
import { offerFreedSlot } from './offer-freed-slot';
import { processTopicRequest } from './process-topic-request';
import { pushDecision } from './push-decision';
import { runDueRoutines } from './run-due-routines';

/** Every background function: served to Inngest Cloud at /api/inngest and run by the local executor. */
export const functions: readonly BackgroundFunction[] = [
  cleanupExpired,
  processTopicRequest,
  analyzePlanetDataSchedule,
  analyzePlanetData,
  bookingReminderSmart,
  offerFreedSlot,
  deliverMessages,
  deliverAccountMail,
  abandonStalledThreadsJob,
  announceClaimableDeliveriesJob,
  expireCardApprovals,
  runDueRoutines,
  pushDecision,
];
