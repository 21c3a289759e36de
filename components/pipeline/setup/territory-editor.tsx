'use client';

import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useRef, useState, type FormEvent } from 'react';
import { api, errorText } from '@/components/api/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardTitle } from '@/components/ui/card';
import { TextField } from '@/components/ui/field';
import { focusFirstError, type FieldErrors } from '@/components/ui/form';
import { useToast } from '@/components/ui/toast';
import type { Wire } from '@/lib/api';
import { useI18n } from '@/lib/i18n/client';
import type { SalesPerson, TerritoriesView } from '@/lib/sales';
import { TerritoryForm } from './territory-form';
import { formErrors, unplaced } from './errors';

/** The territory models, each territory folded open for editing, a territory to add per model, and a new model. */
export function TerritoryEditor({ workspaceId, view, people }: { workspaceId: string; view: Wire<TerritoriesView>; people: SalesPerson[] }) {
  const { t } = useI18n();
  return (
    <Card>
      <CardTitle id="territory-editor">{t('sales.setup.territories')}</CardTitle>
      <p className="mt-1 text-sm text-muted">{t('sales.setup.territoriesLead')}</p>
      <div className="mt-4 flex flex-col gap-5">
        {view.models.map((model) => (
          <section key={model.id} aria-labelledby={`model-${model.id}`} className="flex flex-col gap-2">
            <h3 id={`model-${model.id}`} className="flex flex-wrap items-center gap-2 font-semibold">
              {model.name}
              {model.active && <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-sm text-emerald-900">{t('sales.setup.activeModel')}</span>}
            </h3>
            {model.territories.map((territory) => (
              <details key={territory.id} className="rounded-xl border border-line p-3">
                <summary className="min-h-11 cursor-pointer py-2 font-semibold">
                  {t('sales.setup.territorySummary', { name: territory.name, owner: territory.ownerName, rules: territory.rules.length })}
                </summary>
                <div className="mt-3">
                  <TerritoryForm workspaceId={workspaceId} modelId={model.id} territory={territory} people={people} />
                </div>
              </details>
            ))}
            <details className="rounded-xl border border-dashed border-line-strong p-3">
              <summary className="min-h-11 cursor-pointer py-2 font-semibold">{t('sales.setup.addTerritoryTo', { model: model.name })}</summary>
              <div className="mt-3">
                <TerritoryForm workspaceId={workspaceId} modelId={model.id} people={people} />
              </div>
            </details>
          </section>
        ))}
        <NewModelForm workspaceId={workspaceId} first={view.models.length === 0} />
      </div>
    </Card>
  );
}

function NewModelForm({ workspaceId, first }: { workspaceId: string; first: boolean }) {
  const { t } = useI18n();
  const toast = useToast();
  const router = useRouter();
  const formRef = useRef<HTMLFormElement>(null);
  const [name, setName] = useState('');
  const [localErrors, setLocalErrors] = useState<FieldErrors>({});
  const create = useMutation({
    mutationFn: () => api(`/api/workspaces/${workspaceId}/sales/territories/models`, { method: 'POST', body: { name } }),
    onSuccess: () => {
      toast(t('sales.setup.modelCreated', { name }));
      setName('');
      router.refresh();
    },
    onError: (error) => focusFirstError(formRef.current, formErrors(error)),
  });
  const errors = { ...formErrors(create.error), ...localErrors };

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (create.isPending) return;
    if (!name.trim()) {
      const found = { name: [t('sales.setup.nameMissing')] };
      setLocalErrors(found);
      return focusFirstError(formRef.current, found);
    }
    create.mutate();
  }

  return (
    <form ref={formRef} onSubmit={submit} noValidate aria-label={t('sales.setup.newModel')} className="flex flex-col gap-3 border-t border-line pt-4">
      {unplaced(create.error, ['name']) && <Alert tone="error">{errorText(create.error, t)}</Alert>}
      <TextField
        id="territory-model-name"
        name="name"
        label={t('sales.setup.newModel')}
        hint={t(first ? 'sales.setup.firstModelHint' : 'sales.setup.modelHint')}
        value={name}
        errors={errors.name}
        onChange={(e) => {
          setName(e.target.value);
          setLocalErrors({});
        }}
      />
      <div>
        <Button type="submit" variant="secondary" pending={create.isPending} pendingLabel={t('common.saving')}>
          {t('sales.setup.createModel')}
        </Button>
      </div>
    </form>
  );
}
