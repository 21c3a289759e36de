import { describe, expect, expectTypeOf, it as test } from 'vitest';
import { createTranslator, plural, type PluralBase, type PluralBaseOf } from './index';
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
    const t = createTranslator(en);
    expect(t('validation.passwordLength', { min: 10 })).toBe('At least 10 characters.');
    expect(t('invitations.revokeNamed', {})).toBe('Revoke the invitation for {email}');
  });
});

describe('plural', () => {
  test('English and Italian take .one for 1 only, .other for 0 and 2, with the count filled in', () => {
    const cases = [0, 1, 2].flatMap((count) => [
      { locale: 'en' as const, count, text: plural(createTranslator(en), 'en', 'pulse.bookings', count) },
      { locale: 'it' as const, count, text: plural(createTranslator(it), 'it', 'pulse.bookings', count) },
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
