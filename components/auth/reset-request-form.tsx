'use client';

import { useMutation } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { api, errorText, fieldErrorsOf } from '@/components/api/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { focusFirstError, looksLikeEmail, type FieldErrors } from '@/components/ui/form';
import { useI18n } from '@/lib/i18n/client';

export function ResetRequestForm() {
  const { t } = useI18n();
  const formRef = useRef<HTMLFormElement>(null);
  const [email, setEmail] = useState('');
  const [localErrors, setLocalErrors] = useState<FieldErrors>({});

  const request = useMutation({
    mutationFn: (body: { email: string }) => api('/api/auth/password-reset', { body }),
    onError: (error) => focusFirstError(formRef.current, fieldErrorsOf(error)),
  });

  if (request.isSuccess) {
    // The same words whether or not the account exists: the page must not reveal who has one.
    return <Alert tone="success">{t('reset.sent')}</Alert>;
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (request.isPending) return;
    if (!looksLikeEmail(email)) {
      const found = { email: [t('validation.email')] };
      setLocalErrors(found);
      return focusFirstError(formRef.current, found);
    }
    request.mutate({ email: email.trim() });
  }

  const errors = { ...fieldErrorsOf(request.error), ...localErrors };
  return (
    <form ref={formRef} onSubmit={submit} noValidate className="flex flex-col gap-4">
      {request.isError && !errors.email && <Alert tone="error">{errorText(request.error, t)}</Alert>}
      <TextField
        id="email"
        type="email"
        label={t('fields.email')}
        autoComplete="email"
        inputMode="email"
        value={email}
        onChange={(event) => {
          setEmail(event.target.value);
          setLocalErrors({});
        }}
        errors={errors.email}
      />
      <Button type="submit" pending={request.isPending} pendingLabel={t('reset.pending')} className="w-full">
        {t('reset.submit')}
      </Button>
    </form>
  );
}
