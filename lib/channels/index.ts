/**
 * Channels behind the outbox (docs/messages.md): each workspace's email (SMTP through nodemailer) and
 * SMS / WhatsApp (Twilio's SDK) settings, with the password and token sealed by lib/secrets; the
 * install's own SMTP (lib/config) for account mail (`sendAccountMail`).
 */
export {
  CHANNEL_SEALED_COLUMNS,
  channelSettings,
  channelSettingsInput,
  DEFAULT_DAILY_CAP,
  PROVIDERS,
  readChannelSettings,
  saveChannelSettings,
  smtpCredentials,
  twilioCredentials,
} from './settings';
export type { ChannelSettings, ChannelSettingsInput, Provider, SmtpCredentials, TwilioCredentials } from './settings';
export { MAX_ATTEMPTS, retryDelayMs, sendDueMessages } from './deliver';
export { sendAccountMail } from './account-mail';
export type { AccountMailPass } from './account-mail';
export type { PassResult } from './deliver';
export { TWILIO_STATUS_PATH, twilioStatusCallback } from './status';
export { channelConnectedSql } from './connected';
