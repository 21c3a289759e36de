'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { api, errorText } from '@/components/api/client';
import { Button } from '@/components/ui/button';
import { ChevronRightIcon } from '@/components/ui/icons';
import { useToast } from '@/components/ui/toast';
import type { MessageKey } from '@/lib/i18n';
import { useI18n } from '@/lib/i18n/client';
import type { HomePrefs } from './types';

const SECTION_LABEL = { needs: 'needs.title', done: 'done.title', planets: 'planets.title' } as const satisfies Record<string, MessageKey>;

/** Pinned first, in their order; then the rest in theirs (the server normalizes the same way). */
const arrange = <T,>(order: T[], pinned: T[]) => [...order.filter((x) => pinned.includes(x)), ...order.filter((x) => !pinned.includes(x))];

/**
 * The "Customize" panel: pin and reorder the Home's sections and planets. Each person has their own
 * layout per workspace; saving refreshes the Home in the new order. Loaded only when opened.
 */
export default function CustomizePanel({ id, workspaceId, prefs, onClose }: { id: string; workspaceId: string; prefs: HomePrefs; onClose: () => void }) {
  const { t } = useI18n();
  const router = useRouter();
  const toast = useToast();
  const [draft, setDraft] = useState(prefs);
  const [saving, setSaving] = useState(false);

  async function save() {
    setSaving(true);
    try {
      await api(`/api/home/prefs?workspace_id=${workspaceId}`, { method: 'PUT', body: draft });
      toast(t('home.customizeSaved'));
      onClose();
      router.refresh();
    } catch (error) {
      toast(t('home.customizeFailed', { reason: errorText(error, t) }), 'error');
    }
    setSaving(false);
  }

  return (
    <section id={id} aria-label={t('home.customizeTitle')} className="basis-full rounded-2xl border border-line bg-surface p-4 shadow-card sm:p-5">
      <h2 className="text-lg font-semibold">{t('home.customizeTitle')}</h2>
      <p className="mt-1 text-sm text-pretty text-muted">{t('home.customizeLead')}</p>
      <div className="mt-4 grid gap-6 sm:grid-cols-2">
        <Arranger
          title={t('home.customizeSections')}
          order={draft.sections}
          pinned={draft.pinnedSections}
          label={(x) => t(SECTION_LABEL[x])}
          onChange={(sections, pinnedSections) => setDraft({ ...draft, sections, pinnedSections })}
        />
        <Arranger
          title={t('home.customizePlanets')}
          order={draft.planets}
          pinned={draft.pinnedPlanets}
          label={(x) => t(`planets.${x}`)}
          onChange={(planets, pinnedPlanets) => setDraft({ ...draft, planets, pinnedPlanets })}
        />
      </div>
      <Button className="mt-4" onClick={save} pending={saving} pendingLabel={t('home.customizeSaving')}>
        {t('home.customizeSave')}
      </Button>
    </section>
  );
}

function Arranger<T extends string>({
  title,
  order,
  pinned,
  label,
  onChange,
}: {
  title: string;
  order: T[];
  pinned: T[];
  label: (id: T) => string;
  onChange: (order: T[], pinned: T[]) => void;
}) {
  const { t } = useI18n();
  const move = (i: number, by: -1 | 1) => {
    const next = [...order];
    [next[i], next[i + by]] = [next[i + by]!, next[i]!];
    onChange(arrange(next, pinned), pinned);
  };
  const togglePin = (id: T) => {
    const next = pinned.includes(id) ? pinned.filter((p) => p !== id) : [...pinned, id];
    onChange(arrange(order, next), next);
  };
  return (
    <fieldset>
      <legend className="mb-2 text-sm font-semibold text-muted">{title}</legend>
      <ol className="flex flex-col gap-1">
        {order.map((id, i) => (
          <li key={id} className="flex items-center gap-1 rounded-xl bg-subtle pl-3">
            <span className="flex-1 font-semibold">{label(id)}</span>
            <label className="flex min-h-11 cursor-pointer items-center gap-2 px-2 text-sm">
              <input type="checkbox" className="size-5 accent-[var(--accent)]" checked={pinned.includes(id)} onChange={() => togglePin(id)} />
              <span className="sr-only">{t('home.customizePin', { name: label(id) })}</span>
              <PinIcon />
            </label>
            <button
              type="button"
              className="inline-flex size-11 items-center justify-center rounded-lg text-muted hover:bg-surface disabled:opacity-30"
              disabled={i === 0}
              onClick={() => move(i, -1)}
              aria-label={t('home.customizeUp', { name: label(id) })}
            >
              <ChevronRightIcon className="-rotate-90" />
            </button>
            <button
              type="button"
              className="inline-flex size-11 items-center justify-center rounded-lg text-muted hover:bg-surface disabled:opacity-30"
              disabled={i === order.length - 1}
              onClick={() => move(i, 1)}
              aria-label={t('home.customizeDown', { name: label(id) })}
            >
              <ChevronRightIcon className="rotate-90" />
            </button>
          </li>
        ))}
      </ol>
    </fieldset>
  );
}

function PinIcon() {
  return (
    <svg aria-hidden width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round" strokeLinejoin="round">
      <path d="M9 3h6l-1 6 4 4H6l4-4-1-6Z" />
      <path d="M12 13v8" />
    </svg>
  );
}
