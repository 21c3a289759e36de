'use client';

import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { api, errorText, fieldErrorsOf } from '@/components/api/client';
import { CheckboxField } from '@/components/topics/fields';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardTitle } from '@/components/ui/card';
import { TextAreaField } from '@/components/ui/field';
import { useI18n } from '@/lib/i18n/client';

interface Values {
  consentMessages: boolean;
  consentMarketing: boolean;
  notes: string;
}

/** Consent and notes, saved together: what the customer said, recorded by whoever is at the desk. */
export function CustomerEditor({ workspaceId, customerId, notesMax, initial }: { workspaceId: string; customerId: string; notesMax: number; initial: Values }) {
  const { t } = useI18n();
  const router = useRouter();
  const [values, setValues] = useState(initial);
  const [saved, setSaved] = useState(initial);
  const save = useMutation({
    mutationFn: (body: Values) => api(`/api/workspaces/${workspaceId}/customers/${customerId}`, { method: 'PATCH', body }),
    onSuccess: (_data, body) => {
      setSaved(body);
      router.refresh();
    },
  });
  const dirty = values.consentMessages !== saved.consentMessages || values.consentMarketing !== saved.consentMarketing || values.notes !== saved.notes;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (dirty && !save.isPending) save.mutate(values);
  }

  return (
    <Card>
      <form onSubmit={submit} noValidate className="flex flex-col gap-4">
        <fieldset className="flex flex-col gap-1">
          <legend className="text-lg font-semibold">
            <CardTitle>{t('customers.consent')}</CardTitle>
          </legend>
          <p className="mb-1 text-sm text-muted">{t('customers.consentLead')}</p>
          <CheckboxField
            id="consentMessages"
            label={t('customers.consentMessages')}
            checked={values.consentMessages}
            onChange={(e) => setValues({ ...values, consentMessages: e.target.checked })}
          />
          <CheckboxField
            id="consentMarketing"
            label={t('customers.consentMarketing')}
            checked={values.consentMarketing}
            onChange={(e) => setValues({ ...values, consentMarketing: e.target.checked })}
          />
        </fieldset>
        <TextAreaField
          id="notes"
          label={t('customers.notesLabel')}
          hint={t('customers.notesHint', { max: notesMax })}
          maxLength={notesMax}
          value={values.notes}
          errors={fieldErrorsOf(save.error).notes}
          onChange={(e) => setValues({ ...values, notes: e.target.value })}
        />
        {save.isError && <Alert tone="error">{errorText(save.error, t)}</Alert>}
        {save.isSuccess && !dirty && <Alert tone="success">{t('customers.saved')}</Alert>}
        <Button type="submit" disabled={!dirty} pending={save.isPending} pendingLabel={t('customers.saving')} className="self-start">
          {t('customers.save')}
        </Button>
      </form>
    </Card>
  );
}
