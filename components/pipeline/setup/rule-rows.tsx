'use client';

import { Button } from '@/components/ui/button';
import { SelectField, TextField } from '@/components/ui/field';
import { useI18n } from '@/lib/i18n/client';
import { LEAD_SOURCES } from '@/lib/planets/client';
import { TERRITORY_FIELDS, type TerritoryField } from '@/lib/sales/client';

export interface RuleDraft {
  field: TerritoryField;
  value: string;
}

/** A territory's rules as rows of "field is value"; any one matching puts a deal or lead in the territory. */
export function RuleRows({ idPrefix, rules, onChange }: { idPrefix: string; rules: RuleDraft[]; onChange: (rules: RuleDraft[]) => void }) {
  const { t } = useI18n();
  const set = (i: number, rule: RuleDraft) => onChange(rules.map((r, j) => (j === i ? rule : r)));
  return (
    <fieldset className="flex flex-col gap-3">
      <legend className="text-sm font-semibold">{t('sales.setup.rules')}</legend>
      <p className="text-sm text-muted">{t('sales.setup.rulesHint')}</p>
      {rules.map((rule, i) => (
        <div key={i} className="flex flex-col gap-2 rounded-xl bg-subtle p-3">
          <SelectField
            id={`${idPrefix}-rule-${i}-field`}
            label={t('sales.setup.ruleField', { n: i + 1 })}
            value={rule.field}
            onChange={(e) => set(i, { field: e.target.value as TerritoryField, value: e.target.value === 'source' ? LEAD_SOURCES[0] : '' })}
            options={TERRITORY_FIELDS.map((f) => ({ value: f, label: t(`sales.setup.field.${f}`) }))}
          />
          {rule.field === 'source' ? (
            <SelectField
              id={`${idPrefix}-rule-${i}-value`}
              label={t('sales.setup.ruleValue', { n: i + 1 })}
              value={rule.value}
              onChange={(e) => set(i, { ...rule, value: e.target.value })}
              options={LEAD_SOURCES.map((s) => ({ value: s, label: t(`sales.setup.source.${s}`) }))}
            />
          ) : (
            <TextField id={`${idPrefix}-rule-${i}-value`} label={t('sales.setup.ruleValue', { n: i + 1 })} value={rule.value} onChange={(e) => set(i, { ...rule, value: e.target.value })} />
          )}
          <div>
            <Button variant="ghost" onClick={() => onChange(rules.filter((_, j) => j !== i))}>
              {t('sales.setup.removeRule', { n: i + 1 })}
            </Button>
          </div>
        </div>
      ))}
      <div>
        <Button variant="secondary" onClick={() => onChange([...rules, { field: 'postcode', value: '' }])}>
          {t('sales.setup.addRule')}
        </Button>
      </div>
    </fieldset>
  );
}
