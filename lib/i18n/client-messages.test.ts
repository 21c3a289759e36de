import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { createElement, type ReactNode } from 'react';
import { jsx } from 'react/jsx-runtime';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it as test } from 'vitest';
import { CLIENT_MESSAGES, type ClientMessagesSegment } from './client-messages';
import { I18nProvider, useI18n } from './client';
import { pickNamespaces, type Dictionary, type Namespace } from './index';
import { en } from './messages/en';

const ROOT = path.resolve(import.meta.dirname, '../..');
// `api.*` are the API's error sentences, rendered on the server in the reader's language (lib/api). Schemas the
// browser also parses name them as their messages, but the browser never draws those: the server sends the sentence.
const NAMESPACES = new Set(Object.keys(en).map((key) => key.slice(0, key.indexOf('.'))).filter((ns) => ns !== 'api'));
const ROUTE_FILE = /^(page|layout|not-found|error|loading|template|default)\.tsx$/;

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'api' ? [] : routeFiles(full);
    return ROUTE_FILE.test(name) ? [full] : [];
  });
}

function resolveImport(from: string, specifier: string): string | null {
  const base = specifier.startsWith('@/') ? path.join(ROOT, specifier.slice(2)) : specifier.startsWith('.') ? path.resolve(path.dirname(from), specifier) : null;
  if (!base) return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

const sources = new Map<string, string>();
const source = (file: string) => sources.get(file) ?? sources.set(file, readFileSync(file, 'utf8')).get(file)!;

/** Value imports only (`import type` brings nothing into the browser), and `import('…')`: a lazy panel is still drawn. */
function importsOf(file: string): string[] {
  const text = source(file);
  const specifiers = [
    ...[...text.matchAll(/(?:^|\n)\s*(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/g)].map((m) => m[1]!),
    ...[...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]!),
  ];
  // The dictionaries themselves are what is being sent, not something that uses messages.
  return specifiers.map((s) => resolveImport(file, s)).filter((f): f is string => !!f && !f.includes(`${path.sep}messages${path.sep}`));
}

const isClientModule = (file: string) => /^\s*['"]use client['"]/.test(source(file));

/** Namespaces of every message key written in the module (`'chat.send'`, `` `planets.${p}` ``). */
function namespacesIn(file: string): Set<string> {
  return new Set([...source(file).matchAll(/['"`]([a-z][A-Za-z]*)\.[A-Za-z$]/g)].map((m) => m[1]!).filter((ns) => NAMESPACES.has(ns)));
}

/** The namespaces the browser needs for what `entry` renders: keys in client modules and in all they import. */
function clientNamespaces(entry: string): Set<string> {
  const needed = new Set<string>();
  const seen = new Set<string>();
  const walk = (file: string, inClient: boolean) => {
    const client = inClient || isClientModule(file);
    const key = `${client}:${file}`;
    if (seen.has(key)) return;
    seen.add(key);
    if (client) for (const ns of namespacesIn(file)) needed.add(ns);
    for (const next of importsOf(file)) walk(next, client);
  };
  walk(entry, false);
  return needed;
}

/** The segments a route file's layouts (and the file itself) send: `CLIENT_MESSAGES.root` or `<ClientMessages segment="…">`. */
function sentSegments(file: string): ClientMessagesSegment[] {
  const text = source(file);
  const segments = [...text.matchAll(/<ClientMessages\s+segment="([^"]+)"/g)].map((m) => m[1] as ClientMessagesSegment);
  if (text.includes('CLIENT_MESSAGES.root')) segments.push('root');
  return segments;
}

function layoutChain(file: string): string[] {
  const chain: string[] = [];
  for (let dir = path.dirname(file); dir.startsWith(path.join(ROOT, 'app')); dir = path.dirname(dir)) {
    const layout = path.join(dir, 'layout.tsx');
    if (existsSync(layout)) chain.push(layout);
  }
  return chain.includes(file) ? chain : [file, ...chain];
}

const routes = routeFiles(path.join(ROOT, 'app'));

describe('the messages each part of the app sends to the browser', () => {
  test('every route has, from its layouts, each namespace its client components use', () => {
    for (const file of routes) {
      const sent = new Set(layoutChain(file).flatMap(sentSegments).flatMap((segment) => CLIENT_MESSAGES[segment] as readonly string[]));
      const missing = [...clientNamespaces(file)].filter((ns) => !sent.has(ns)).sort();
      expect({ route: path.relative(ROOT, file), missing }).toEqual({ route: path.relative(ROOT, file), missing: [] });
    }
  });

  test('every segment of CLIENT_MESSAGES is sent by some layout or page', () => {
    const used = new Set(routes.flatMap(sentSegments));
    expect(Object.keys(CLIENT_MESSAGES).filter((segment) => !used.has(segment as ClientMessagesSegment))).toEqual([]);
  });

  test('the Home sends its browser less than half of the dictionary', () => {
    const home = path.join(ROOT, 'app/w/[workspaceId]/page.tsx');
    const sent = layoutChain(home).flatMap(sentSegments).flatMap((segment) => CLIENT_MESSAGES[segment] as readonly Namespace[]);
    const size = (dict: Partial<Dictionary>) => JSON.stringify(dict).length;
    expect(size(pickNamespaces(en, sent)) / size(en)).toBeLessThan(0.5);
  });
});

describe('I18nProvider', () => {
  function Probe() {
    const { t } = useI18n();
    return createElement('p', null, `${t('common.back')} | ${t('chat.send')}`);
  }
  const provider = (dict: Partial<Dictionary>, children: ReactNode) => jsx(I18nProvider, { locale: 'en', dict, children });

  test('a provider inside another adds its messages to the outer ones', () => {
    const html = renderToStaticMarkup(provider(pickNamespaces(en, ['common']), provider(pickNamespaces(en, ['chat']), createElement(Probe))));
    expect(html).toBe(`<p>${en['common.back']} | ${en['chat.send']}</p>`);
  });

  test('a key no layout sent shows as the key itself, not as an empty string', () => {
    const html = renderToStaticMarkup(provider(pickNamespaces(en, ['common']), createElement(Probe)));
    expect(html).toBe(`<p>${en['common.back']} | chat.send</p>`);
  });
});
