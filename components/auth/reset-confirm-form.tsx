'use client';

import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useRef, useState, useTransition, type FormEvent } from 'react';
import { api, errorText, fieldErrorsOf } from '@/components/api/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { focusFirstError, MIN_PASSWORD_LENGTH, type FieldErrors } from '@/components/ui/form';
import { useI18n } from '@/lib/i18n/client';

export function ResetConfirmForm({ token }: { token: string }) {
  const { t } = useI18n();
  const router = useRouter();
  const formRef = useRef<HTMLFormElement>(null);
  const [navigating, startNavigation] = useTransition();
  const [password, setPassword] = useState('');
  const [localErrors, setLocalErrors] = useState<FieldErrors>({});

  const confirm = useMutation({
    mutationFn: (body: { token: string; password: string }) => api('/api/auth/password-reset/confirm', { body }),
    // Every session ended with the old password, so the next step is signing in with the new one.
    onSuccess: () => startNavigation(() => router.replace('/sign-in?reset=1')),
    onError: (error) => focusFirstError(formRef.current, fieldErrorsOf(error)),
  });
  const busy = confirm.isPending || confirm.isSuccess || navigating;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    if (password.length < MIN_PASSWORD_LENGTH) {
      const found = { password: [t('validation.passwordTooShort', { min: MIN_PASSWORD_LENGTH })] };
      setLocalErrors(found);
      return focusFirstError(formRef.current, found);
    }
    confirm.mutate({ token, password });
  }

  const errors = { ...fieldErrorsOf(confirm.error), ...localErrors };
  return (
    <form ref={formRef} onSubmit={submit} noValidate className="flex flex-col gap-4">
      {confirm.isError && !errors.password && <Alert tone="error">{errorText(confirm.error, t)}</Alert>}
      <TextField
        id="password"
        type="password"
        label={t('fields.newPassword')}
        hint={t('validation.passwordLength', { min: MIN_PASSWORD_LENGTH })}
        autoComplete="new-password"
        value={password}
        onChange={(event) => {
          setPassword(event.target.value);
          setLocalErrors({});
        }}
        errors={errors.password}
      />
      <Button type="submit" pending={busy} pendingLabel={t('resetConfirm.pending')} className="w-full">
        {t('resetConfirm.submit')}
      </Button>
    </form>
  );
}
