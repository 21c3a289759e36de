'use client';

import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useRef, useState, type FormEvent } from 'react';
import { api, errorText, fieldErrorsOf } from '@/components/api/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { focusFirstError, type FieldErrors } from '@/components/ui/form';
import { useToast } from '@/components/ui/toast';
import { useI18n } from '@/lib/i18n/client';
import type { Option, WorkspaceSummary } from './types';
import { WorkspaceFields, type WorkspaceValues } from './workspace-fields';

export function WorkspaceSettingsForm({ workspace, timeZones, sectors }: { workspace: WorkspaceSummary; timeZones: Option[]; sectors: Option[] }) {
  const { t } = useI18n();
  const toast = useToast();
  const router = useRouter();
  const formRef = useRef<HTMLFormElement>(null);
  const initial: WorkspaceValues = { name: workspace.name, timeZone: workspace.timeZone, locale: workspace.locale, sector: workspace.sector };
  const [saved, setSaved] = useState(initial);
  const [values, setValues] = useState(initial);
  const [localErrors, setLocalErrors] = useState<FieldErrors>({});

  // Only what changed is sent, so a setting nobody touched can never fail validation.
  const changes = Object.fromEntries(
    (Object.keys(values) as (keyof WorkspaceValues)[]).filter((key) => values[key] !== saved[key]).map((key) => [key, values[key]]),
  );
  const dirty = Object.keys(changes).length > 0;

  const save = useMutation({
    mutationFn: (body: Partial<WorkspaceValues>) => api<WorkspaceSummary>(`/api/workspaces/${workspace.id}`, { method: 'PATCH', body }),
    onSuccess: (updated) => {
      const next = { name: updated.name, timeZone: updated.timeZone, locale: updated.locale, sector: updated.sector };
      setSaved(next);
      setValues(next);
      toast(t('workspaceSettings.saved'));
      // The name also shows in the shell, which the server rendered.
      router.refresh();
    },
    onError: (error) => focusFirstError(formRef.current, fieldErrorsOf(error)),
  });
  const errors = { ...fieldErrorsOf(save.error), ...localErrors };

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (save.isPending || !dirty) return;
    if (!values.name.trim()) {
      const found = { name: [t('validation.workspaceName')] };
      setLocalErrors(found);
      return focusFirstError(formRef.current, found);
    }
    save.mutate(changes);
  }

  return (
    <form ref={formRef} onSubmit={submit} noValidate className="flex flex-col gap-5">
      {save.isError && !Object.keys(fieldErrorsOf(save.error)).length && <Alert tone="error">{errorText(save.error, t)}</Alert>}
      <WorkspaceFields
        values={values}
        onChange={(field, value) => {
          setValues((current) => ({ ...current, [field]: value }));
          setLocalErrors((current) => ({ ...current, [field]: undefined }));
        }}
        errors={errors}
        timeZones={timeZones}
        sectors={sectors}
      />
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" pending={save.isPending} pendingLabel={t('common.saving')} disabled={!dirty}>
          {t('common.save')}
        </Button>
        {dirty && (
          <Button variant="ghost" onClick={() => setValues(saved)} disabled={save.isPending}>
            {t('common.discard')}
          </Button>
        )}
      </div>
    </form>
  );
}
