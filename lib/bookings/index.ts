/**
 * Bookings: the operations a salon's front desk (or the owner's own software) performs on the booking
 * planet — book, move, confirm, cancel, mark done or no-show — each in one RLS transaction that also
 * emits the event the background flows react to: `booking/created` starts the smart reminder,
 * `booking/cancelled` offers the freed slot to the waitlist. Tables: the planets migration.
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
