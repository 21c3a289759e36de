import type { Channel } from './types';

/** SMS when there is a phone number (read within minutes), email otherwise; null when neither exists. */
export function contactOf(customer: { phone: string | null; email: string | null }): { channel: Channel; to: string } | null {
  if (customer.phone) return { channel: 'sms', to: customer.phone };
  if (customer.email) return { channel: 'email', to: customer.email };
  return null;
}

/** A custom message from an agent, or the template: either way the exact text is in the hashed args. */
export const MESSAGE_MAX = 480;

export const at = (d: Date) => d.toISOString();
export const iso = (d: Date | string) => new Date(d).toISOString();
export const HOUR = 3_600_000;
export const DAY = 86_400_000;
