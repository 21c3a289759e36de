'use client';

import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { api, errorText } from '@/components/api/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardTitle } from '@/components/ui/card';
import { SelectField } from '@/components/ui/field';
import { useToast } from '@/components/ui/toast';
import type { Wire } from '@/lib/api';
import { useI18n } from '@/lib/i18n/client';
import type { CommissionPlans, SalesPerson } from '@/lib/sales';
import { PlanForm } from './plan-form';

const NO_PLAN = 'none';

/** The commission plans, each folded open for editing, a new one, and who is on which. */
export function PlanEditor({ workspaceId, data }: { workspaceId: string; data: Wire<CommissionPlans> }) {
  const { t } = useI18n();
  return (
    <Card>
      <CardTitle id="plan-editor">{t('sales.setup.plans')}</CardTitle>
      <p className="mt-1 text-sm text-muted">{t('sales.setup.plansLead')}</p>
      <div className="mt-4 flex flex-col gap-3">
        {data.plans.map((plan) => (
          <details key={plan.id} className="rounded-xl border border-line p-3">
            <summary className="min-h-11 cursor-pointer py-2 font-semibold">{plan.name}</summary>
            <div className="mt-3">
              <PlanForm workspaceId={workspaceId} plan={plan} />
            </div>
          </details>
        ))}
        <details className="rounded-xl border border-dashed border-line-strong p-3">
          <summary className="min-h-11 cursor-pointer py-2 font-semibold">{t('sales.setup.newPlan')}</summary>
          <div className="mt-3">
            <PlanForm workspaceId={workspaceId} />
          </div>
        </details>
      </div>
      {data.plans.length > 0 && (
        <section aria-labelledby="plan-people" className="mt-6 flex flex-col gap-3">
          <h3 id="plan-people" className="font-semibold">
            {t('sales.setup.whoIsOnWhich')}
          </h3>
          {data.people.map((person) => (
            <AssignForm key={person.userId} workspaceId={workspaceId} person={person} plans={data.plans} />
          ))}
        </section>
      )}
    </Card>
  );
}

function AssignForm({ workspaceId, person, plans }: { workspaceId: string; person: SalesPerson; plans: Wire<CommissionPlans>['plans'] }) {
  const { t } = useI18n();
  const toast = useToast();
  const router = useRouter();
  const [planId, setPlanId] = useState(person.planId ?? NO_PLAN);
  const assign = useMutation({
    mutationFn: () => api(`/api/workspaces/${workspaceId}/sales/commission/assignments`, { method: 'PUT', body: { userId: person.userId, planId: planId === NO_PLAN ? null : planId } }),
    onSuccess: () => {
      toast(t('sales.setup.assigned', { name: person.name }));
      router.refresh();
    },
  });
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!assign.isPending) assign.mutate();
  }
  return (
    <form onSubmit={submit} noValidate aria-label={t('sales.setup.planOf', { name: person.name })} className="flex flex-col gap-2 rounded-xl border border-line p-3">
      {assign.isError && <Alert tone="error">{errorText(assign.error, t)}</Alert>}
      <SelectField
        id={`plan-of-${person.userId}`}
        name="planId"
        label={t('sales.setup.planOf', { name: person.name })}
        value={planId}
        onChange={(e) => setPlanId(e.target.value)}
        options={[{ value: NO_PLAN, label: t('sales.setup.noPlan') }, ...plans.map((p) => ({ value: p.id, label: p.name }))]}
      />
      <div>
        <Button type="submit" variant="secondary" pending={assign.isPending} pendingLabel={t('common.saving')} disabled={planId === (person.planId ?? NO_PLAN)}>
          {t('sales.setup.assign', { name: person.name })}
        </Button>
      </div>
    </form>
  );
}
