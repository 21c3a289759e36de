'use client';

import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useRef, useState, type FormEvent } from 'react';
import { api, errorText } from '@/components/api/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { SelectField, TextField } from '@/components/ui/field';
import { focusFirstError, type FieldErrors } from '@/components/ui/form';
import { useToast } from '@/components/ui/toast';
import type { Wire } from '@/lib/api';
import { useI18n } from '@/lib/i18n/client';
import type { RoutingChange, SalesPerson, TerritoryView } from '@/lib/sales';
import { MovesPreview } from './moves-preview';
import { RuleRows, type RuleDraft } from './rule-rows';
import { formErrors, unplaced } from './errors';

interface Draft {
  name: string;
  ownerUserId: string;
  rules: RuleDraft[];
}

/**
 * Edits a territory (or, without one, adds a territory to a model) in two steps: "Preview" asks the API
 * what the change would move and writes nothing; "Apply" makes the change and those moves. Editing the
 * draft after a preview drops it, so what is applied is always what was previewed.
 */
export function TerritoryForm({
  workspaceId,
  modelId,
  territory,
  people,
}: {
  workspaceId: string;
  modelId: string;
  territory?: Wire<TerritoryView>;
  people: SalesPerson[];
}) {
  const { t } = useI18n();
  const toast = useToast();
  const router = useRouter();
  const formRef = useRef<HTMLFormElement>(null);
  const idPrefix = territory ? `territory-${territory.id}` : `territory-new-${modelId}`;
  const empty: Draft = { name: '', ownerUserId: people[0]?.userId ?? '', rules: [{ field: 'postcode', value: '' }] };
  const [draft, setDraft] = useState<Draft>(territory ? { name: territory.name, ownerUserId: territory.ownerUserId, rules: territory.rules } : empty);
  const [localErrors, setLocalErrors] = useState<FieldErrors>({});
  const url = territory ? `/api/workspaces/${workspaceId}/sales/territories/${territory.id}` : `/api/workspaces/${workspaceId}/sales/territories/models/${modelId}/territories`;

  const send = useMutation({
    mutationFn: ({ apply }: { apply: boolean }) =>
      api<Wire<RoutingChange>>(url, { method: territory ? 'PATCH' : 'POST', body: { name: draft.name, ownerUserId: draft.ownerUserId, rules: draft.rules, apply } }),
    onSuccess: (change) => {
      if (!change.applied) return;
      toast(t('sales.setup.territoryApplied', { count: change.moves.length }));
      if (!territory) setDraft(empty);
      send.reset();
      router.refresh();
    },
    onError: (error) => focusFirstError(formRef.current, formErrors(error)),
  });
  const preview = send.data && !send.data.applied ? send.data : null;
  const errors = { ...formErrors(send.error), ...localErrors };

  function edit(next: Partial<Draft>) {
    setDraft((current) => ({ ...current, ...next }));
    setLocalErrors({});
    if (send.data || send.error) send.reset();
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (send.isPending) return;
    const found: FieldErrors = {};
    if (!draft.name.trim()) found.name = [t('sales.setup.nameMissing')];
    if (draft.rules.some((r) => !r.value.trim())) found.rules = [t('sales.setup.ruleMissing')];
    if (Object.keys(found).length) {
      setLocalErrors(found);
      return focusFirstError(formRef.current, found);
    }
    send.mutate({ apply: false });
  }

  return (
    <form ref={formRef} onSubmit={submit} noValidate aria-label={territory ? t('sales.setup.editTerritory', { name: territory.name }) : t('sales.setup.newTerritory')} className="flex flex-col gap-4">
      {unplaced(send.error, ['name', 'ownerUserId', 'rules']) && <Alert tone="error">{errorText(send.error, t)}</Alert>}
      <TextField id={`${idPrefix}-name`} name="name" label={t('sales.setup.territoryName')} value={draft.name} errors={errors.name} onChange={(e) => edit({ name: e.target.value })} />
      <SelectField
        id={`${idPrefix}-owner`}
        name="ownerUserId"
        label={t('sales.setup.territoryOwner')}
        value={draft.ownerUserId}
        errors={errors.ownerUserId}
        onChange={(e) => edit({ ownerUserId: e.target.value })}
        options={people.map((p) => ({ value: p.userId, label: p.name }))}
      />
      <RuleRows idPrefix={idPrefix} rules={draft.rules} onChange={(rules) => edit({ rules })} />
      {errors.rules && (
        <p role="alert" className="text-sm font-medium text-danger">
          {errors.rules.join(' ')}
        </p>
      )}
      {preview && <MovesPreview change={preview} />}
      <div className="flex flex-wrap gap-3">
        {preview ? (
          <>
            <Button onClick={() => send.mutate({ apply: true })} pending={send.isPending} pendingLabel={t('common.saving')}>
              {t('sales.setup.apply', { count: preview.moves.length })}
            </Button>
            <Button variant="ghost" onClick={() => send.reset()}>
              {t('common.cancel')}
            </Button>
          </>
        ) : (
          <Button type="submit" variant="secondary" pending={send.isPending} pendingLabel={t('sales.setup.previewing')}>
            {t('sales.setup.preview')}
          </Button>
        )}
      </div>
    </form>
  );
}
