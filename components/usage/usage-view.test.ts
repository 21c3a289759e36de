import { createElement } from 'react';
import { jsx } from 'react/jsx-runtime';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it as test } from 'vitest';
import { I18nProvider } from '@/lib/i18n/client';
import { en } from '@/lib/i18n/messages/en';
import { it } from '@/lib/i18n/messages/it';
import { createTranslator } from '@/lib/i18n';
import { ACTION_TOOL } from '@/lib/actions';
import { connectionTools } from '@/lib/connections';
import { duration, howItEnded, readableOutcome, toolCallWords } from './run-words';
import type { RunDetailView } from './types';
import { numberFormats, RunDetailPanel } from './usage-view';

/** A run as the walk through the demo recorded it: Nova on the offline model, answering in a DM. */
const OFFLINE_RUN: RunDetailView = {
  id: '00000000-0000-4000-8000-000000000001',
  createdAt: '2026-12-03T13:22:10.000Z',
  agentName: 'Nova',
  planet: 'cross',
  trigger: 'chat:dm',
  backend: 'offline',
  model: 'offline',
  stopReason: 'no_tool_use',
  iterations: 3,
  tokens: 0,
  durationMs: 28.4,
  error: null,
  agentId: '00000000-0000-4000-8000-000000000002',
  ran: true,
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  toolCalls: [
    { name: 'planet_metrics', ok: true, iteration: 1, ms: 26 },
    {
      name: 'reply',
      ok: false,
      iteration: 2,
      ms: 1.4,
      error:
        'Invalid input for reply: message: Invalid input: expected string, received undefined. The input schema is {"additionalProperties":false,"properties":{"delegate":{"additionalProperties":false}}}.',
    },
  ],
  proposals: [],
  outcome: {
    finalText: [
      'Summary by the offline model (no AI model is configured, so this only restates the data read).',
      '- planet_metrics: {"planet":"booking","metrics":{"bookings_today":{"value":9,"unit":"count","previous":9,"changePct":0},"bookings_week":{"value":41,"unit":"count"}}}',
      '- reply: could not be read (Invalid input for reply: message: Invalid input: expected string, received undefined. The input schema is {"additionalProperties":false,"properties":{}})',
    ].join('\n'),
    output: null,
  },
  errorKind: null,
  sessionId: null,
};

const render = (run: RunDetailView, locale: 'en' | 'it') =>
  renderToStaticMarkup(
    jsx(I18nProvider, { locale, dict: locale === 'it' ? it : en, children: createElement(RunDetailPanel, { run, fmt: numberFormats(locale) }) }),
  )
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, ' ');

describe('a run in Settings → Usage', () => {
  test('reads as what ran, where, when, how long, the tokens, how it ended and each tool call in words', () => {
    const text = render(OFFLINE_RUN, 'en');
    for (const part of [
      'Nova answered in a direct message',
      'Across planets',
      '28 ms',
      'offline model',
      'Tokens None',
      'It answered and needed nothing more.',
      'Read the planet’s figures — done in 26 ms',
      'Wrote its answer in the conversation — did not work: the agent gave it input it could not use.',
      'Summary by the offline model',
      '2 lines of raw data are left out.',
    ]) {
      expect(text).toContain(part);
    }
    // No raw JSON, no schema, no runtime sentence.
    expect(text).not.toMatch(/[{}]|"\w+":|schema|Invalid input|undefined|planet_metrics/);
  });

  test('in Italian too', () => {
    const text = render(OFFLINE_RUN, 'it');
    expect(text).toContain('Nova ha risposto in un messaggio diretto');
    expect(text).toContain('Ha scritto la sua risposta nella conversazione — non è riuscito: l’agente gli ha dato dati che non poteva usare.');
    expect(text).not.toMatch(/[{}]|schema|Invalid input/);
  });

  test('a failed run says why in a sentence by its kind, never the exception', () => {
    const failed = { ...OFFLINE_RUN, stopReason: 'error' as const, errorKind: 'auth', error: 'AuthenticationError: 401 {"type":"error","error":{"type":"authentication_error"}}' };
    const text = render(failed, 'en');
    expect(text).toContain('It did not finish: the AI provider refused the key or the login.');
    expect(text).not.toContain('AuthenticationError');
    const t = createTranslator(en, 'en');
    expect(howItEnded({ stopReason: 'error', errorKind: 'something new' }, t)).toBe('It did not finish: something went wrong on our side.');
    expect(howItEnded({ stopReason: 'max_iter', errorKind: null }, t)).toBe('It stopped at its limit of steps before finishing.');
  });
});

describe('run words', () => {
  test('durations and outcomes', () => {
    expect([duration(28.4, 'en'), duration(1400, 'en'), duration(1400, 'it'), duration(150_000, 'en')]).toEqual(['28 ms', '1.4 sec', '1,4 s', '2.5 min']);
    expect(readableOutcome('All good.\n- x: ["a","b"]')).toEqual({ text: 'All good.', omitted: 1 });
    expect(readableOutcome('Booked Marta for {time}.')).toEqual({ text: 'Booked Marta for {time}.', omitted: 0 });
  });

  test('every action and connected-account tool reads as what it does, in both languages, not as its name', () => {
    const names = [...Object.values(ACTION_TOOL), ...connectionTools.map((tool) => tool.name)];
    for (const [dict, locale] of [[en, 'en'], [it, 'it']] as const) {
      const t = createTranslator(dict, locale);
      const unnamed = names.filter((name) => toolCallWords({ name, ok: true, ms: 5 } as never, locale, t).action === t('usage.tool.other', { name }));
      expect(unnamed, locale).toEqual([]);
    }
  });
});
