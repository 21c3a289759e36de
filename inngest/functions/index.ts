import type { BackgroundFunction } from '../define';
import { cleanupExpired } from './cleanup-expired';
import { processTopicRequest } from './process-topic-request';

/** Every background function: served to Inngest Cloud at /api/inngest and run by the local executor. */
export const functions: readonly BackgroundFunction[] = [cleanupExpired, processTopicRequest];
