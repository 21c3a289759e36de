'use client';

import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useRef, useState, useTransition, type FormEvent } from 'react';
import { api, errorText, fieldErrorsOf } from '@/components/api/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { compactErrors, focusFirstError, looksLikeEmail, type FieldErrors } from '@/components/ui/form';
import { useI18n } from '@/lib/i18n/client';

interface Credentials {
  email: string;
  password: string;
}

export function SignInForm({ next, demo }: { next: string; demo: Credentials | null }) {
  const { t } = useI18n();
  const router = useRouter();
  const formRef = useRef<HTMLFormElement>(null);
  const [navigating, startNavigation] = useTransition();
  const [values, setValues] = useState<Credentials>({ email: '', password: '' });
  const [localErrors, setLocalErrors] = useState<FieldErrors>({});

  const signIn = useMutation({
    mutationFn: (body: Credentials) => api('/api/auth/sign-in', { body }),
    onSuccess: () => startNavigation(() => router.replace(next)),
    onError: (error) => focusFirstError(formRef.current, fieldErrorsOf(error)),
  });
  // Stay busy from the click until the next page shows: a second submit would only race the first.
  const busy = signIn.isPending || signIn.isSuccess || navigating;
  const errors = { ...fieldErrorsOf(signIn.error), ...localErrors };

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const found = compactErrors({
      email: looksLikeEmail(values.email) ? undefined : [t('validation.email')],
      password: values.password ? undefined : [t('validation.passwordRequired')],
    });
    setLocalErrors(found);
    if (Object.keys(found).length) return focusFirstError(formRef.current, found);
    signIn.mutate({ email: values.email.trim(), password: values.password });
  }

  const update = (field: keyof Credentials) => (event: { target: { value: string } }) => {
    setValues((current) => ({ ...current, [field]: event.target.value }));
    setLocalErrors((current) => ({ ...current, [field]: undefined }));
  };

  return (
    <div className="flex flex-col gap-6">
      <form ref={formRef} onSubmit={submit} noValidate className="flex flex-col gap-4">
        {signIn.isError && !Object.keys(fieldErrorsOf(signIn.error)).length && <Alert tone="error">{errorText(signIn.error, t)}</Alert>}
        <TextField
          id="email"
          type="email"
          label={t('fields.email')}
          autoComplete="email"
          inputMode="email"
          value={values.email}
          onChange={update('email')}
          errors={errors.email}
        />
        <TextField
          id="password"
          type="password"
          label={t('fields.password')}
          autoComplete="current-password"
          value={values.password}
          onChange={update('password')}
          errors={errors.password}
        />
        <Button type="submit" pending={busy} pendingLabel={t('signIn.pending')} className="w-full">
          {t('signIn.submit')}
        </Button>
      </form>
      {demo && (
        <div className="rounded-2xl border border-dashed border-accent/50 bg-accent-soft/60 p-4 text-[0.9375rem]">
          <p className="font-semibold">{t('signIn.demoTitle')}</p>
          <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
            <dt className="text-muted">{t('fields.email')}</dt>
            <dd className="font-mono break-all">{demo.email}</dd>
            <dt className="text-muted">{t('fields.password')}</dt>
            <dd className="font-mono break-all">{demo.password}</dd>
          </dl>
          <Button variant="secondary" className="mt-3 w-full" onClick={() => setValues(demo)}>
            {t('signIn.useDemo')}
          </Button>
        </div>
      )}
    </div>
  );
}
