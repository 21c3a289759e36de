import type { Wire } from '@/lib/api';
import type { BookingDay, BookingWeek, CustomerOption } from '@/lib/bookings';

/** The Bookings screen's data as the browser receives it (lib/bookings through the serializer). */
export type DayView = Wire<BookingDay>;
export type WeekView = Wire<BookingWeek>;
export type AppointmentItem = DayView['appointments'][number];
export type ActivityView = AppointmentItem['agentActivity'][number];
export type WaitlistItem = DayView['waitlist'][number];
export type CustomerItem = Wire<CustomerOption>;

export const bookingsKey = (workspaceId: string) => ['bookings', workspaceId] as const;
export const dayKey = (workspaceId: string, date: string) => ['bookings', workspaceId, 'day', date] as const;
export const dayPath = (workspaceId: string, date: string) => `/api/workspaces/${workspaceId}/appointments/day?date=${date}`;

/** Appointments that hold their slot (a cancelled one has given it back). */
export const holdsSlot = (a: Pick<AppointmentItem, 'status'>) => a.status !== 'cancelled';
