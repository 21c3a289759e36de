import type { Wire } from '@/lib/api';
import type { RunDetail, UsageReport } from '@/lib/agent';

export type UsageReportView = Wire<UsageReport>;
export type RunSummaryView = UsageReportView['runs'][number];
export type RunDetailView = Wire<RunDetail>;
