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
import type { CommissionPlanView, SalesPeriod } from '@/lib/sales';
import { RateRows, type RateRow } from './rate-rows';
import { basisPointsOf, centsOf, typed } from './values';
import { formErrors, unplaced } from './errors';

interface Draft {
  name: string;
  period: SalesPeriod;
  baseRate: string;
  cap: string;
  tiers: RateRow[];
  products: RateRow[];
}

/** Creates a commission plan or edits one: the base rate, tiers above quota, per-product rates and a cap. */
export function PlanForm({ workspaceId, plan }: { workspaceId: string; plan?: Wire<CommissionPlanView> }) {
  const { t, locale } = useI18n();
  const toast = useToast();
  const router = useRouter();
  const formRef = useRef<HTMLFormElement>(null);
  const idPrefix = plan ? `plan-${plan.id}` : 'plan-new';
  const empty: Draft = { name: '', period: 'month', baseRate: '', cap: '', tiers: [], products: [] };
  const [draft, setDraft] = useState<Draft>(
    plan
      ? {
          name: plan.name,
          period: plan.period,
          baseRate: typed(plan.baseRateBp, locale),
          cap: plan.capCents === null ? '' : typed(plan.capCents, locale),
          tiers: plan.tiers.map((tier) => ({ key: String(tier.fromPct), rate: typed(tier.rateBp, locale) })),
          products: plan.productRates.map((p) => ({ key: p.product, rate: typed(p.rateBp, locale) })),
        }
      : empty,
  );
  const [localErrors, setLocalErrors] = useState<FieldErrors>({});
  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      api(plan ? `/api/workspaces/${workspaceId}/sales/commission/plans/${plan.id}` : `/api/workspaces/${workspaceId}/sales/commission/plans`, {
        method: plan ? 'PATCH' : 'POST',
        body,
      }),
    onSuccess: () => {
      toast(t('sales.setup.planSaved', { name: draft.name.trim() }));
      if (!plan) setDraft(empty);
      router.refresh();
    },
    onError: (error) => focusFirstError(formRef.current, formErrors(error)),
  });
  const errors = { ...formErrors(save.error), ...localErrors };
  const edit = (next: Partial<Draft>) => {
    setDraft((current) => ({ ...current, ...next }));
    setLocalErrors({});
  };

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (save.isPending) return;
    const baseRateBp = basisPointsOf(draft.baseRate);
    const capCents = draft.cap.trim() ? centsOf(draft.cap) : null;
    const tiers = draft.tiers.map((r) => ({ fromPct: /^\d+$/.test(r.key.trim()) ? Number(r.key.trim()) : NaN, rateBp: basisPointsOf(r.rate) }));
    const productRates = draft.products.map((r) => ({ product: r.key.trim(), rateBp: basisPointsOf(r.rate) }));
    const found: FieldErrors = {};
    if (!draft.name.trim()) found.name = [t('sales.setup.nameMissing')];
    if (baseRateBp === null || baseRateBp > 10_000) found.baseRateBp = [t('sales.setup.rateInvalid')];
    if (draft.cap.trim() && !capCents) found.capCents = [t('sales.setup.amountInvalid')];
    if (tiers.some((tier) => !(tier.fromPct >= 1) || tier.rateBp === null || tier.rateBp > 10_000)) found.tiers = [t('sales.setup.tiersInvalid')];
    if (productRates.some((p) => !p.product || p.rateBp === null || p.rateBp > 10_000)) found.productRates = [t('sales.setup.productsInvalid')];
    if (Object.keys(found).length) {
      setLocalErrors(found);
      return focusFirstError(formRef.current, found);
    }
    save.mutate({ name: draft.name, period: draft.period, baseRateBp, capCents, tiers, productRates });
  }

  return (
    <form ref={formRef} onSubmit={submit} noValidate aria-label={plan ? t('sales.setup.editPlan', { name: plan.name }) : t('sales.setup.newPlan')} className="flex flex-col gap-4">
      {unplaced(save.error, ['name', 'baseRateBp', 'tiers', 'productRates', 'capCents']) && <Alert tone="error">{errorText(save.error, t)}</Alert>}
      <TextField id={`${idPrefix}-name`} name="name" label={t('sales.setup.planName')} value={draft.name} errors={errors.name} onChange={(e) => edit({ name: e.target.value })} />
      <SelectField
        id={`${idPrefix}-period`}
        name="period"
        label={t('sales.setup.planPeriod')}
        value={draft.period}
        onChange={(e) => edit({ period: e.target.value as SalesPeriod })}
        options={[
          { value: 'month', label: t('sales.setup.monthly') },
          { value: 'quarter', label: t('sales.setup.quarterly') },
        ]}
      />
      <TextField
        id={`${idPrefix}-rate`}
        name="baseRateBp"
        label={t('sales.setup.baseRate')}
        inputMode="decimal"
        value={draft.baseRate}
        errors={errors.baseRateBp}
        onChange={(e) => edit({ baseRate: e.target.value })}
      />
      <RateRows
        idPrefix={`${idPrefix}-tier`}
        name="tiers"
        legend={t('sales.setup.tiers')}
        hint={t('sales.setup.tiersHint')}
        keyLabel={(n) => t('sales.setup.tierFrom', { n })}
        rateLabel={(n) => t('sales.setup.tierRate', { n })}
        removeLabel={(n) => t('sales.setup.removeTier', { n })}
        addLabel={t('sales.setup.addTier')}
        numericKey
        rows={draft.tiers}
        errors={errors.tiers}
        onChange={(tiers) => edit({ tiers })}
      />
      <RateRows
        idPrefix={`${idPrefix}-product`}
        name="productRates"
        legend={t('sales.setup.productRates')}
        hint={t('sales.setup.productRatesHint')}
        keyLabel={(n) => t('sales.setup.productName', { n })}
        rateLabel={(n) => t('sales.setup.productRate', { n })}
        removeLabel={(n) => t('sales.setup.removeProduct', { n })}
        addLabel={t('sales.setup.addProduct')}
        rows={draft.products}
        errors={errors.productRates}
        onChange={(products) => edit({ products })}
      />
      <TextField
        id={`${idPrefix}-cap`}
        name="capCents"
        label={t('sales.setup.cap')}
        hint={t('sales.setup.capHint')}
        inputMode="decimal"
        value={draft.cap}
        errors={errors.capCents}
        onChange={(e) => edit({ cap: e.target.value })}
      />
      <div>
        <Button type="submit" pending={save.isPending} pendingLabel={t('common.saving')}>
          {plan ? t('sales.setup.savePlan', { name: plan.name }) : t('sales.setup.createPlan')}
        </Button>
      </div>
    </form>
  );
}
