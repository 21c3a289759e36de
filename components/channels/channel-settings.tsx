'use client';

import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { api, errorText, fieldErrorsOf } from '@/components/api/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardTitle } from '@/components/ui/card';
import { TextField } from '@/components/ui/field';
import { useToast } from '@/components/ui/toast';
import { useI18n } from '@/lib/i18n/client';

export interface ChannelSettingsView {
  email: { host: string; port: number; secure: boolean; user: string | null; from: string; replyTo: string | null; passwordSet: boolean } | null;
  twilio: { accountSid: string; smsFrom: string | null; whatsappFrom: string | null } | null;
  dailyCap: number;
  installEmail: boolean;
}

type Body = { email?: Record<string, unknown> | null; twilio?: Record<string, unknown> | null; dailyCap?: number };

/** Settings → Messages: email over SMTP, SMS and WhatsApp through Twilio, and the daily cap. Passwords are written, never shown. */
export function ChannelSettingsForms({ workspaceId, initial }: { workspaceId: string; initial: ChannelSettingsView }) {
  const { t } = useI18n();
  const toast = useToast();
  const router = useRouter();
  const [current, setCurrent] = useState(initial);
  const save = useMutation({
    mutationFn: (body: Body) => api<ChannelSettingsView>(`/api/workspaces/${workspaceId}/channels`, { method: 'PUT', body }),
    onSuccess: (updated) => {
      setCurrent((was) => ({ ...updated, installEmail: was.installEmail }));
      toast(t('channels.saved'));
      router.refresh();
    },
  });
  const errors = fieldErrorsOf(save.error);
  const general = save.isError && !Object.keys(errors).length ? errorText(save.error, t) : null;

  const e = current.email;
  const [email, setEmail] = useState({ host: e?.host ?? '', port: String(e?.port ?? 587), secure: e?.secure ?? false, user: e?.user ?? '', password: '', from: e?.from ?? '', replyTo: e?.replyTo ?? '' });
  const tw = current.twilio;
  const [twilio, setTwilio] = useState({ accountSid: tw?.accountSid ?? '', authToken: '', smsFrom: tw?.smsFrom ?? '', whatsappFrom: tw?.whatsappFrom ?? '' });
  const [cap, setCap] = useState(String(current.dailyCap));
  const optional = (value: string) => (value.trim() ? value.trim() : undefined);

  function saveEmail(event: FormEvent) {
    event.preventDefault();
    save.mutate({
      email: { host: email.host.trim(), port: Number(email.port), secure: email.secure, user: optional(email.user), password: email.password || undefined, from: email.from.trim(), replyTo: optional(email.replyTo) },
    });
  }
  function saveTwilio(event: FormEvent) {
    event.preventDefault();
    save.mutate({ twilio: { accountSid: twilio.accountSid.trim(), authToken: optional(twilio.authToken), smsFrom: optional(twilio.smsFrom), whatsappFrom: optional(twilio.whatsappFrom) } });
  }
  function saveCap(event: FormEvent) {
    event.preventDefault();
    save.mutate({ dailyCap: Number(cap) });
  }
  const err = (field: string) => errors[field];

  return (
    <div className="flex flex-col gap-6">
      {general && <Alert tone="error">{general}</Alert>}
      <Card>
        <CardTitle>{t('channels.emailTitle')}</CardTitle>
        <p className="mt-1 mb-4 text-sm text-pretty text-muted">
          {current.email ? t('channels.emailConnected', { from: current.email.from }) : current.installEmail ? t('channels.emailInstall') : t('channels.emailNone')}
        </p>
        <form onSubmit={saveEmail} noValidate className="flex flex-col gap-4">
          <div className="grid gap-4 sm:grid-cols-[1fr_8rem]">
            <TextField id="smtpHost" label={t('channels.host')} value={email.host} onChange={(ev) => setEmail({ ...email, host: ev.target.value })} errors={err('email.host')} autoComplete="off" />
            <TextField id="smtpPort" label={t('channels.port')} inputMode="numeric" value={email.port} onChange={(ev) => setEmail({ ...email, port: ev.target.value })} errors={err('email.port')} />
          </div>
          <label className="flex min-h-11 items-center gap-3 text-[0.9375rem]">
            <input type="checkbox" className="size-5" checked={email.secure} onChange={(ev) => setEmail({ ...email, secure: ev.target.checked })} />
            {t('channels.secure')}
          </label>
          <TextField id="smtpUser" label={t('channels.user')} value={email.user} onChange={(ev) => setEmail({ ...email, user: ev.target.value })} errors={err('email.user')} autoComplete="off" />
          <TextField
            id="smtpPassword"
            type="password"
            label={t('channels.password')}
            hint={current.email?.passwordSet ? t('channels.secretKept') : undefined}
            value={email.password}
            onChange={(ev) => setEmail({ ...email, password: ev.target.value })}
            errors={err('email.password') ?? err('password')}
            autoComplete="new-password"
          />
          <TextField id="smtpFrom" type="email" label={t('channels.from')} value={email.from} onChange={(ev) => setEmail({ ...email, from: ev.target.value })} errors={err('email.from')} />
          <TextField id="smtpReplyTo" type="email" label={t('channels.replyTo')} hint={t('channels.replyToHint')} value={email.replyTo} onChange={(ev) => setEmail({ ...email, replyTo: ev.target.value })} errors={err('email.replyTo')} />
          <div className="flex flex-wrap gap-3">
            <Button type="submit" pending={save.isPending} pendingLabel={t('common.saving')}>
              {t('channels.saveEmail')}
            </Button>
            {current.email && (
              <Button variant="ghost" onClick={() => save.mutate({ email: null })} disabled={save.isPending}>
                {t('channels.disconnect')}
              </Button>
            )}
          </div>
        </form>
      </Card>

      <Card>
        <CardTitle>{t('channels.twilioTitle')}</CardTitle>
        <p className="mt-1 mb-4 text-sm text-pretty text-muted">{current.twilio ? t('channels.twilioConnected') : t('channels.twilioNone')}</p>
        <form onSubmit={saveTwilio} noValidate className="flex flex-col gap-4">
          <TextField id="twilioSid" label={t('channels.accountSid')} value={twilio.accountSid} onChange={(ev) => setTwilio({ ...twilio, accountSid: ev.target.value })} errors={err('twilio.accountSid')} autoComplete="off" />
          <TextField
            id="twilioToken"
            type="password"
            label={t('channels.authToken')}
            hint={current.twilio ? t('channels.secretKept') : undefined}
            value={twilio.authToken}
            onChange={(ev) => setTwilio({ ...twilio, authToken: ev.target.value })}
            errors={err('twilio.authToken')}
            autoComplete="new-password"
          />
          <TextField id="twilioSms" type="tel" label={t('channels.smsFrom')} hint={t('channels.phoneHint')} value={twilio.smsFrom} onChange={(ev) => setTwilio({ ...twilio, smsFrom: ev.target.value })} errors={err('twilio.smsFrom')} />
          <TextField id="twilioWhatsapp" type="tel" label={t('channels.whatsappFrom')} value={twilio.whatsappFrom} onChange={(ev) => setTwilio({ ...twilio, whatsappFrom: ev.target.value })} errors={err('twilio.whatsappFrom')} />
          <div className="flex flex-wrap gap-3">
            <Button type="submit" pending={save.isPending} pendingLabel={t('common.saving')}>
              {t('channels.saveTwilio')}
            </Button>
            {current.twilio && (
              <Button variant="ghost" onClick={() => save.mutate({ twilio: null })} disabled={save.isPending}>
                {t('channels.disconnect')}
              </Button>
            )}
          </div>
        </form>
      </Card>

      <Card>
        <CardTitle>{t('channels.capTitle')}</CardTitle>
        <form onSubmit={saveCap} noValidate className="mt-3 flex flex-col gap-4 sm:flex-row sm:items-end">
          <TextField id="dailyCap" inputMode="numeric" label={t('channels.cap')} hint={t('channels.capHint')} value={cap} onChange={(ev) => setCap(ev.target.value)} errors={err('dailyCap')} />
          <Button type="submit" variant="secondary" pending={save.isPending} pendingLabel={t('common.saving')}>
            {t('common.save')}
          </Button>
        </form>
      </Card>
    </div>
  );
}
