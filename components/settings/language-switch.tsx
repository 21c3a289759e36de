import { setLocaleAction } from '@/lib/i18n/actions';
import { LOCALES, type Locale } from '@/lib/i18n';
import { getI18n } from '@/lib/i18n/server';

/** Each language named in itself, so anyone can find their own. */
const NATIVE_NAMES: Record<Locale, string> = { en: 'English', it: 'Italiano' };

/**
 * The interface language, as a plain form posting to a server action: it works before any
 * JavaScript has loaded, and the page re-renders in the new language in one round trip.
 */
export async function LanguageSwitch({ compact = false }: { compact?: boolean }) {
  const { locale, t } = await getI18n();
  return (
    <form action={setLocaleAction} aria-label={t('language.label')} className={compact ? 'flex gap-1' : 'flex flex-col gap-2 sm:flex-row'}>
      {LOCALES.map((option) => {
        const current = option === locale;
        return (
          <button
            key={option}
            type="submit"
            name="locale"
            value={option}
            aria-pressed={current}
            className={
              compact
                ? `min-h-11 rounded-lg px-3 text-sm font-semibold ${current ? 'text-ink underline underline-offset-4' : 'text-muted hover:bg-subtle hover:text-ink'}`
                : `flex min-h-12 flex-1 items-center justify-between gap-3 rounded-xl border px-4 text-left font-semibold ${
                    current ? 'border-accent bg-accent-soft text-accent-ink' : 'border-line-strong bg-surface hover:bg-subtle'
                  }`
            }
          >
            <span lang={option}>{NATIVE_NAMES[option]}</span>
            {!compact && current && <span className="text-sm font-medium">{t('language.current')}</span>}
          </button>
        );
      })}
    </form>
  );
}
