/**
 * Customers: the daily screen's list and search (last visit, usual gap between visits), one customer's
 * visits, spend, consent, notes and the messages sent to them, and erasure (the GDPR right to erasure):
 * one transaction that removes the person from every place that names them and keeps their
 * appointments, detached, for the business's counts (docs/customers.md). Members see and edit consent
 * and notes; the owner and admins erase.
 */
export {
  customerChangeSchema,
  getCustomer,
  HISTORY_LIMIT,
  LIST_LIMIT,
  listCustomers,
  listCustomersSchema,
  NOTES_MAX,
  updateCustomer,
  type CustomerChange,
  type CustomerDetail,
  type CustomerListItem,
  type CustomerMessage,
  type CustomerVisit,
} from './customers';
export { ERASED, ERASED_BY_ROW, eraseCustomer, eraseCustomerSchema, personPattern, SCRUBBED, type ErasureResult } from './erase';
