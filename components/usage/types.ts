import type { RunDetail, UsageReport } from '@/lib/agent';

/** What the API's serializer makes of a value: dates become ISO strings. */
type Serialized<T> = T extends Date ? string : T extends Array<infer U> ? Serialized<U>[] : T extends object ? { [K in keyof T]: Serialized<T[K]> } : T;

export type UsageReportView = Serialized<UsageReport>;
export type RunSummaryView = UsageReportView['runs'][number];
export type RunDetailView = Serialized<RunDetail>;
