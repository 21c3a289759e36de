'use client';

import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useRef, useState, useTransition, type FormEvent } from 'react';
import { api, errorText, fieldErrorsOf } from '@/components/api/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { compactErrors, focusFirstError, looksLikeEmail, MIN_PASSWORD_LENGTH, type FieldErrors } from '@/components/ui/form';
import { useI18n } from '@/lib/i18n/client';

interface Values {
  displayName: string;
  email: string;
  password: string;
}

export function SignUpForm({ next, email }: { next: string; email: string }) {
  const { t, locale } = useI18n();
  const router = useRouter();
  const formRef = useRef<HTMLFormElement>(null);
  const [navigating, startNavigation] = useTransition();
  const [values, setValues] = useState<Values>({ displayName: '', email, password: '' });
  const [localErrors, setLocalErrors] = useState<FieldErrors>({});

  const signUp = useMutation({
    // The account starts in the language and time zone the person is using right now.
    mutationFn: (body: Values) =>
      api('/api/auth/sign-up', { body: { ...body, locale, timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone } }),
    onSuccess: () => startNavigation(() => router.replace(next)),
    onError: (error) => focusFirstError(formRef.current, fieldErrorsOf(error)),
  });
  const busy = signUp.isPending || signUp.isSuccess || navigating;
  const errors = { ...fieldErrorsOf(signUp.error), ...localErrors };

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const found = compactErrors({
      email: looksLikeEmail(values.email) ? undefined : [t('validation.email')],
      password: values.password.length >= MIN_PASSWORD_LENGTH ? undefined : [t('validation.passwordTooShort', { min: MIN_PASSWORD_LENGTH })],
    });
    setLocalErrors(found);
    if (Object.keys(found).length) return focusFirstError(formRef.current, found);
    signUp.mutate({ displayName: values.displayName.trim(), email: values.email.trim(), password: values.password });
  }

  const update = (field: keyof Values) => (event: { target: { value: string } }) => {
    setValues((current) => ({ ...current, [field]: event.target.value }));
    setLocalErrors((current) => ({ ...current, [field]: undefined }));
  };

  return (
    <form ref={formRef} onSubmit={submit} noValidate className="flex flex-col gap-4">
      {signUp.isError && !Object.keys(fieldErrorsOf(signUp.error)).length && <Alert tone="error">{errorText(signUp.error, t)}</Alert>}
      <TextField
        id="displayName"
        label={t('fields.displayName')}
        hint={t('signUp.displayNameHint')}
        autoComplete="name"
        maxLength={80}
        value={values.displayName}
        onChange={update('displayName')}
        errors={errors.displayName}
      />
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
        hint={t('validation.passwordLength', { min: MIN_PASSWORD_LENGTH })}
        autoComplete="new-password"
        value={values.password}
        onChange={update('password')}
        errors={errors.password}
      />
      <Button type="submit" pending={busy} pendingLabel={t('signUp.pending')} className="w-full">
        {t('signUp.submit')}
      </Button>
    </form>
  );
}
