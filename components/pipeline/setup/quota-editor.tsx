'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { api, errorText } from '@/components/api/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardTitle } from '@/components/ui/card';
import { SelectField, TextField } from '@/components/ui/field';
import { focusFirstError, type FieldErrors } from '@/components/ui/form';
import { useToast } from '@/components/ui/toast';
import { useI18n } from '@/lib/i18n/client';
import type { QuotaMetric, SalesPeriod, SalesPerson } from '@/lib/sales';
import { centsOf } from './values';
import { formErrors, unplaced } from './errors';

const TEAM = 'team';

/** Sets a person's or the whole team's quota for this month or this quarter (setting it again replaces it). */
export function QuotaEditor({ workspaceId, people }: { workspaceId: string; people: SalesPerson[] }) {
  const { t } = useI18n();
  const toast = useToast();
  const queryClient = useQueryClient();
  const formRef = useRef<HTMLFormElement>(null);
  const [who, setWho] = useState(TEAM);
  const [period, setPeriod] = useState<SalesPeriod>('month');
  const [metric, setMetric] = useState<QuotaMetric>('won_value');
  const [target, setTarget] = useState('');
  const [localErrors, setLocalErrors] = useState<FieldErrors>({});

  const save = useMutation({
    mutationFn: (body: { userId: string | null; period: SalesPeriod; metric: QuotaMetric; target: number }) =>
      api(`/api/workspaces/${workspaceId}/sales/quotas`, { method: 'PUT', body }),
    onSuccess: () => {
      toast(t('sales.setup.quotaSaved'));
      void queryClient.invalidateQueries({ queryKey: ['sales-overview', workspaceId] });
    },
    onError: (error) => focusFirstError(formRef.current, formErrors(error)),
  });
  const errors = { ...formErrors(save.error), ...localErrors };

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (save.isPending) return;
    const value = metric === 'won_value' ? centsOf(target) : /^\d+$/.test(target.trim()) ? Number(target.trim()) : null;
    if (!value) {
      const found = { target: [t(metric === 'won_value' ? 'sales.setup.amountInvalid' : 'sales.setup.countInvalid')] };
      setLocalErrors(found);
      return focusFirstError(formRef.current, found);
    }
    save.mutate({ userId: who === TEAM ? null : who, period, metric, target: value });
  }

  return (
    <Card>
      <CardTitle id="quota-editor">{t('sales.setup.quotas')}</CardTitle>
      <p className="mt-1 text-sm text-muted">{t('sales.setup.quotasLead')}</p>
      <form ref={formRef} onSubmit={submit} noValidate aria-labelledby="quota-editor" className="mt-4 flex flex-col gap-4">
        {unplaced(save.error, ['userId', 'target']) && <Alert tone="error">{errorText(save.error, t)}</Alert>}
        <SelectField
          id="userId"
          label={t('sales.setup.quotaFor')}
          value={who}
          onChange={(e) => setWho(e.target.value)}
          errors={errors.userId}
          options={[{ value: TEAM, label: t('sales.setup.wholeTeam') }, ...people.map((p) => ({ value: p.userId, label: p.name }))]}
        />
        <SelectField
          id="period"
          label={t('sales.period')}
          value={period}
          onChange={(e) => setPeriod(e.target.value as SalesPeriod)}
          options={[
            { value: 'month', label: t('sales.period.month') },
            { value: 'quarter', label: t('sales.period.quarter') },
          ]}
        />
        <SelectField
          id="metric"
          label={t('sales.setup.metric')}
          value={metric}
          onChange={(e) => setMetric(e.target.value as QuotaMetric)}
          options={[
            { value: 'won_value', label: t('sales.setup.metric.won_value') },
            { value: 'won_count', label: t('sales.setup.metric.won_count') },
          ]}
        />
        <TextField
          id="target"
          label={t(metric === 'won_value' ? 'sales.setup.targetValue' : 'sales.setup.targetCount')}
          inputMode={metric === 'won_value' ? 'decimal' : 'numeric'}
          value={target}
          errors={errors.target}
          onChange={(e) => {
            setTarget(e.target.value);
            setLocalErrors({});
          }}
        />
        <div>
          <Button type="submit" pending={save.isPending} pendingLabel={t('common.saving')}>
            {t('sales.setup.saveQuota')}
          </Button>
        </div>
      </form>
    </Card>
  );
}
