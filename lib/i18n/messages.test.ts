import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { AppRouterContext } from 'next/dist/shared/lib/app-router-context.shared-runtime';
import { createElement } from 'react';
import { jsx } from 'react/jsx-runtime';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, expectTypeOf, it as test } from 'vitest';
import CustomizePanel from '@/components/home/customize-panel';
import { ToastProvider } from '@/components/ui/toast';
import { DEFAULT_PREFS } from '@/lib/home';
import { I18nProvider } from './client';
import { CLIENT_MESSAGES } from './client-messages';
import { createTranslator, elideItalian, plural, pickNamespaces, type PluralBase, type PluralBaseOf } from './index';
import { en } from './messages/en';
import { it } from './messages/it';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('dictionaries', () => {
  test('Italian uses exactly the placeholders of English, key by key', () => {
    for (const key of Object.keys(en) as (keyof typeof en)[]) {
      expect({ key, vars: placeholders(it[key]) }).toEqual({ key, vars: placeholders(en[key]) });
    }
  });

  test('no string is empty', () => {
    for (const dict of [en, it]) for (const [key, value] of Object.entries(dict)) expect({ key, empty: !value.trim() }).toEqual({ key, empty: false });
  });
});

describe('createTranslator', () => {
  test('fills placeholders and leaves unknown ones visible', () => {
    const t = createTranslator(en, 'en');
    expect(t('validation.passwordLength', { min: 10 })).toBe('At least 10 characters.');
    expect(t('invitations.revokeNamed', {})).toBe('Revoke the invitation for {email}');
  });
});

describe('plural', () => {
  test('English and Italian take .one for 1 only, .other for 0 and 2, with the count filled in', () => {
    const cases = [0, 1, 2].flatMap((count) => [
      { locale: 'en' as const, count, text: plural(createTranslator(en, 'en'), 'en', 'pulse.bookings', count) },
      { locale: 'it' as const, count, text: plural(createTranslator(it, 'it'), 'it', 'pulse.bookings', count) },
    ]);
    expect(cases).toEqual([
      { locale: 'en', count: 0, text: '0 bookings today' },
      { locale: 'it', count: 0, text: '0 prenotazioni oggi' },
      { locale: 'en', count: 1, text: '1 booking today' },
      { locale: 'it', count: 1, text: '1 prenotazione oggi' },
      { locale: 'en', count: 2, text: '2 bookings today' },
      { locale: 'it', count: 2, text: '2 prenotazioni oggi' },
    ]);
  });

  test('only a base with both a .one and an .other key is accepted', () => {
    expectTypeOf<PluralBaseOf<'both.one' | 'both.other' | 'onlyOne.one' | 'onlyOther.other' | 'neither'>>().toEqualTypeOf<'both'>();
    expectTypeOf<'pulse.bookings'>().toExtend<PluralBase>();
    expectTypeOf<'done.win_back'>().toExtend<PluralBase>();
    expectTypeOf<'pulse.bookings.one'>().not.toExtend<PluralBase>();
    expectTypeOf<'pulse.label'>().not.toExtend<PluralBase>();
    expectTypeOf<'pulse'>().not.toExtend<PluralBase>();
  });
});

describe('Italian elision', () => {
  test('del, dal, al, nel and sul elide before a number whose name begins with a vowel', () => {
    const cases: Array<[string, string]> = [
      ['giù del 8%', "giù dell'8%"],
      ['su del 1%', "su dell'1%"],
      ['su del 11%', "su dell'11%"],
      ['giù del 18%', 'giù del 18%'],
      ['giù del 80%', "giù dell'80%"],
      ['giù del 89%', "giù dell'89%"],
      ['giù del 100%', 'giù del 100%'],
      ['su del 800%', "su dell'800%"],
      ['aspetta dal 8 dicembre', "aspetta dall'8 dicembre"],
      ['aspetta dal 28 dicembre', 'aspetta dal 28 dicembre'],
      ['fino al 11 maggio', "fino all'11 maggio"],
      ['nel 2026', 'nel 2026'],
      ['sul 1.000', 'sul 1.000'],
      ['sul 8.000', "sull'8.000"],
      ['del 11.500', "dell'11.500"],
      ['del 1.000.000', "dell'1.000.000"],
      ['del 8,5%', "dell'8,5%"],
      ['model 8', 'model 8'],
    ];
    expect(cases.map(([input]) => [input, elideItalian(input)])).toEqual(cases);
  });

  test('the Italian translator elides what it fills in; English is left alone', () => {
    expect(createTranslator(it, 'it')('trend.down', { pct: 8 })).toBe("giù dell'8%");
    expect(createTranslator(it, 'it')('trend.up', { pct: 12 })).toBe('su del 12%');
    expect(createTranslator(en, 'en')('trend.down', { pct: 8 })).toBe('down 8%');
  });

  test('one new insight is singular in Italian: "1 nuova osservazione", not "1 nuovi"', () => {
    const t = createTranslator(it, 'it');
    expect([1, 2].map((n) => plural(t, 'it', 'planets.newInsights', n))).toEqual(['1 nuova osservazione', '2 nuove osservazioni']);
  });
});

/** Every module of the app that can draw text. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'api' || entry.name === 'node_modules' ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe('keys used by components', () => {
  const ROOT = path.resolve(import.meta.dirname, '../..');
  const namespaces = new Set(Object.keys(en).map((key) => key.slice(0, key.indexOf('.'))));
  const keys = new Set(Object.keys(en));

  test('every key a component or page names exists in both dictionaries (a plural base needs .one and .other)', () => {
    const missing: string[] = [];
    for (const file of [...sourceFiles(path.join(ROOT, 'components')), ...sourceFiles(path.join(ROOT, 'app'))]) {
      const text = readFileSync(file, 'utf8');
      // 'ns.key', and 'ns.' or the fixed start of `ns.key.${…}` as a prefix.
      for (const [, key, dynamic] of text.matchAll(/['"`]([a-z][A-Za-z]*\.[A-Za-z0-9_.-]*?)(\$\{|['"`])/g)) {
        if (!namespaces.has(key!.slice(0, key!.indexOf('.')))) continue;
        const prefix = dynamic === '${' || key!.endsWith('.');
        const found = prefix ? [...keys].some((k) => k.startsWith(key!)) : keys.has(key!) || (keys.has(`${key}.one`) && keys.has(`${key}.other`));
        const inItalian = prefix ? Object.keys(it).some((k) => k.startsWith(key!)) : key! in it || `${key}.one` in it;
        if (!found || !inItalian) missing.push(`${path.relative(ROOT, file)}: ${key}`);
      }
    }
    expect(missing).toEqual([]);
  });

  test('Customize on the Home shows labels, not keys, in both languages and to screen readers', () => {
    const router = { back() {}, forward() {}, refresh() {}, push() {}, replace() {}, prefetch() {} };
    // What the Home's page and layouts send the browser (client-messages.test.ts checks the chain).
    const sent = [...CLIENT_MESSAGES.root, ...CLIENT_MESSAGES.workspace, ...CLIENT_MESSAGES.home];
    for (const [locale, dict] of [['en', en], ['it', it]] as const) {
      const html = renderToStaticMarkup(
        jsx(AppRouterContext.Provider, {
          value: router as never,
          children: jsx(ToastProvider, {
            children: jsx(I18nProvider, {
              locale,
              dict: pickNamespaces(dict, sent),
              children: createElement(CustomizePanel, { id: 'customize', workspaceId: 'w', prefs: DEFAULT_PREFS, onClose: () => {} }),
            }),
          }),
        }),
      );
      const shown = [...html.matchAll(/>([^<]+)</g), ...html.matchAll(/(?:aria-label|title|placeholder)="([^"]*)"/g)].map((m) => m[1]!.trim()).filter(Boolean);
      const raw = shown.filter((s) => [...keys].some((key) => s.includes(key)));
      expect({ locale, raw }).toEqual({ locale, raw: [] });
      expect(shown).toEqual(expect.arrayContaining([dict['planets.title'], dict['planets.booking'], dict['home.customizePin'].replace('{name}', dict['planets.crm'])]));
    }
  });
});
