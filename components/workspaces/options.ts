import type { Locale } from '@/lib/i18n';
import type { Option } from './types';

/** Every IANA time zone the runtime knows, plus UTC (which the list leaves out). */
export function timeZoneOptions(): Option[] {
  return ['UTC', ...Intl.supportedValuesOf('timeZone')].map((zone) => ({ value: zone, label: zone.replaceAll('_', ' ') }));
}

/** Sectors in the interface language, alphabetical, with "other" kept last where people expect it. */
export function sectorOptions(sectors: readonly { id: string; label: Record<Locale, string> }[], locale: Locale): Option[] {
  const collator = new Intl.Collator(locale);
  return sectors
    .map((sector) => ({ value: sector.id, label: sector.label[locale] }))
    .sort((a, b) => (a.value === 'other' ? 1 : b.value === 'other' ? -1 : collator.compare(a.label, b.label)));
}

/** Languages a workspace works in, each named in itself. */
export const WORKSPACE_LOCALES: Option[] = [
  { value: 'en', label: 'English' },
  { value: 'it', label: 'Italiano' },
];
