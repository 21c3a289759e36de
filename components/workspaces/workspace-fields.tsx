'use client';

import { SelectField, TextField } from '@/components/ui/field';
import type { FieldErrors } from '@/components/ui/form';
import { useI18n } from '@/lib/i18n/client';
import { WORKSPACE_LOCALES } from './options';
import type { Option } from './types';

export interface WorkspaceValues {
  name: string;
  timeZone: string;
  locale: string;
  sector: string;
}

/** The settings a workspace is created with and later edited: the same fields, the same words. */
export function WorkspaceFields({
  values,
  onChange,
  errors,
  timeZones,
  sectors,
  disabled = false,
}: {
  values: WorkspaceValues;
  onChange: (field: keyof WorkspaceValues, value: string) => void;
  errors: FieldErrors;
  timeZones: Option[];
  sectors: Option[];
  disabled?: boolean;
}) {
  const { t } = useI18n();
  // A zone the runtime does not list (an old alias) still shows as selected instead of silently changing.
  const zones = timeZones.some((zone) => zone.value === values.timeZone)
    ? timeZones
    : [{ value: values.timeZone, label: values.timeZone }, ...timeZones];

  return (
    <>
      <TextField
        id="name"
        label={t('workspace.fields.name')}
        value={values.name}
        maxLength={80}
        autoComplete="organization"
        onChange={(event) => onChange('name', event.target.value)}
        errors={errors.name}
        disabled={disabled}
      />
      <SelectField
        id="timeZone"
        label={t('workspace.fields.timeZone')}
        hint={t('workspace.fields.timeZoneHint')}
        value={values.timeZone}
        options={zones}
        onChange={(event) => onChange('timeZone', event.target.value)}
        errors={errors.timeZone}
        disabled={disabled}
      />
      <SelectField
        id="locale"
        label={t('workspace.fields.locale')}
        hint={t('workspace.fields.localeHint')}
        value={values.locale}
        options={WORKSPACE_LOCALES}
        onChange={(event) => onChange('locale', event.target.value)}
        errors={errors.locale}
        disabled={disabled}
      />
      <SelectField
        id="sector"
        label={t('workspace.fields.sector')}
        hint={t('workspace.fields.sectorHint')}
        value={values.sector}
        options={sectors}
        onChange={(event) => onChange('sector', event.target.value)}
        errors={errors.sector}
        disabled={disabled}
      />
    </>
  );
}
