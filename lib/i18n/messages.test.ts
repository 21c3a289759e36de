import { describe, expect, it as test } from 'vitest';
import { createTranslator } from './index';
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
