import 'server-only';
import { installSmtp } from './email';

/**
 * Whether a provider would take an outbox message now, as SQL over the message row `o` (its workspace and
 * channel): email with the workspace's SMTP or the install's, SMS and WhatsApp with a Twilio sender. Screens
 * show a queued message without one as "Ready — connect email or SMS to send", never as about to go.
 */
export function channelConnectedSql(o: string): string {
  const install = installSmtp() ? 'true' : 'false';
  const settings = (condition: string) => `exists (select 1 from public.workspace_channels ch where ch.workspace_id = ${o}.workspace_id and ${condition})`;
  return `(case ${o}.channel
    when 'email' then ${install} or ${settings('ch.smtp_host is not null')}
    when 'sms' then ${settings('ch.twilio_account_sid is not null and ch.twilio_sms_from is not null')}
    else ${settings('ch.twilio_account_sid is not null and ch.twilio_whatsapp_from is not null')} end)`;
}
