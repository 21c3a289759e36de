'use client';

import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useRef, useState, useSyncExternalStore, useTransition, type FormEvent } from 'react';
import { api, errorText, fieldErrorsOf } from '@/components/api/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { focusFirstError, type FieldErrors } from '@/components/ui/form';
import { useI18n } from '@/lib/i18n/client';
import type { Option } from './types';
import { WorkspaceFields, type WorkspaceValues } from './workspace-fields';

export function CreateWorkspaceForm({ timeZones, sectors }: { timeZones: Option[]; sectors: Option[] }) {
  const { t, locale } = useI18n();
  const router = useRouter();
  const formRef = useRef<HTMLFormElement>(null);
  const [navigating, startNavigation] = useTransition();
  // The server cannot know the browser's zone: it renders UTC, the browser its own, until someone picks one.
  const browserZone = useSyncExternalStore(neverChanges, readBrowserZone, () => 'UTC');
  const [chosen, setChosen] = useState<Partial<WorkspaceValues>>({});
  const values: WorkspaceValues = { name: '', timeZone: browserZone, locale, sector: 'other', ...chosen };
  const [localErrors, setLocalErrors] = useState<FieldErrors>({});

  const create = useMutation({
    mutationFn: (body: WorkspaceValues) => api<{ id: string }>('/api/workspaces', { body }),
    onSuccess: (workspace) => startNavigation(() => router.push(`/w/${workspace.id}`)),
    onError: (error) => focusFirstError(formRef.current, fieldErrorsOf(error)),
  });
  const busy = create.isPending || create.isSuccess || navigating;
  const errors = { ...fieldErrorsOf(create.error), ...localErrors };

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    if (!values.name.trim()) {
      const found = { name: [t('validation.workspaceName')] };
      setLocalErrors(found);
      return focusFirstError(formRef.current, found);
    }
    create.mutate({ ...values, name: values.name.trim() });
  }

  return (
    <form ref={formRef} onSubmit={submit} noValidate className="flex flex-col gap-5">
      {create.isError && !Object.keys(fieldErrorsOf(create.error)).length && <Alert tone="error">{errorText(create.error, t)}</Alert>}
      <WorkspaceFields
        values={values}
        onChange={(field, value) => {
          setChosen((current) => ({ ...current, [field]: value }));
          setLocalErrors((current) => ({ ...current, [field]: undefined }));
        }}
        errors={errors}
        timeZones={timeZones}
        sectors={sectors}
      />
      <Button type="submit" pending={busy} pendingLabel={t('createWorkspace.pending')} className="w-full sm:w-auto sm:self-start">
        {t('createWorkspace.submit')}
      </Button>
    </form>
  );
}

const neverChanges = () => () => {};
const readBrowserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
