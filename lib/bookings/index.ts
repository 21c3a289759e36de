/**
 * Bookings: the operations a salon's front desk (or the owner's own software) performs on the booking
 * planet — book, move, confirm, cancel, mark done or no-show — each in one RLS transaction that also
 * emits the event the background flows react to: `booking/created` starts the smart reminder,
 * `booking/cancelled` offers the freed slot to the waitlist. And what the Bookings screen reads: a day
 * per staff member with the waitlist and what the agents did for each appointment, a week at a glance,
 * the customers to book. Any member may do all of it (a front desk person is a member). Tables: the
 * planets migration.
 */
export {
  appointmentChangeSchema,
  bookAppointment,
  bookingSchema,
  changeAppointment,
  listAppointments,
  listAppointmentsSchema,
  type AppointmentChange,
  type AppointmentView,
  type BookingInput,
} from './appointments';
export {
  bookingDay,
  bookingWeek,
  customerSearchSchema,
  dayQuerySchema,
  findCustomers,
  type AgentActivity,
  type BookingDay,
  type BookingWeek,
  type CustomerOption,
  type DayAppointment,
  type DayQuery,
  type ServiceOption,
  type StaffColumn,
  type WaitlistView,
  type WeekDay,
} from './board';
