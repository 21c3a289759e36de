'use client';

import Link from 'next/link';
import { useParams } from 'next/navigation';
import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { api, errorText } from '@/components/api/client';
import { useToast } from '@/components/ui/toast';
import type { Wire } from '@/lib/api';
import type { ClickResult, ActionState, ArtifactChip, CardAction } from '@/lib/cards';
import type { MessageAuthorKind } from '@/lib/chat';
import { readAttachments, stateKey } from '@/lib/cards/client';
import { useI18n } from '@/lib/i18n/client';
import { ResultCard } from './result-card';

type ClickAnswer = Wire<ClickResult>;

/** What this needs of a message; the chat's own message type fits. */
export interface AttachmentMessage {
  id: string;
  payload: unknown;
  author?: { kind: MessageAuthorKind; name: string };
}

/**
 * What a message carries besides its text: its stamped cards (with working buttons) and chips for
 * its artifacts. Renders nothing for a message without them. A click shows at once as "on its way";
 * the card's real state arrives with the message (realtime re-read), and a refused click rolls back
 * with a toast saying why.
 */
export function MessageAttachments({ message }: { message: AttachmentMessage }) {
  const { locale, t } = useI18n();
  const toast = useToast();
  const { workspaceId } = useParams<{ workspaceId: string }>();
  const { cards, artifacts, actionState } = readAttachments(message.payload);
  // Clicks the server answered before the message itself caught up (its realtime re-read).
  const [local, setLocal] = useState<Record<string, ActionState>>({});

  const click = useMutation({
    mutationFn: ({ cardId, action }: { cardId: string; action: CardAction }) =>
      api<ClickAnswer>(`/api/cards/${message.id}/actions`, { body: { cardId, actionId: action.id, locale } }),
    onSuccess: (result, { cardId, action }) =>
      setLocal((all) => ({
        ...all,
        [stateKey(cardId, action.id)]: { cardId, actionId: action.id, eventId: result.eventId, status: result.status, at: new Date().toISOString() },
      })),
    onError: (error) => toast(t('cards.clickFailed', { reason: errorText(error, t) }), 'error'),
  });

  if (cards.length === 0 && artifacts.length === 0) return null;
  // The message's state wins once it knows the click (same event); until then, the click's answer.
  const state = { ...actionState };
  for (const [key, value] of Object.entries(local)) if (state[key]?.eventId !== value.eventId) state[key] = value;
  const busy = click.isPending ? click.variables : undefined;

  return (
    <div className="mt-2 flex flex-col gap-3">
      {cards.map((card) => (
        <ResultCard
          key={card.id}
          card={card}
          state={state}
          agentName={message.author?.kind === 'agent' ? message.author.name : ''}
          busyActionId={busy?.cardId === card.id ? busy.action.id : undefined}
          onAction={message.author?.kind === 'agent' ? (action) => click.mutate({ cardId: card.id, action }) : undefined}
        />
      ))}
      {artifacts.length > 0 && (
        <ul className="flex flex-wrap gap-2" role="list">
          {artifacts.map((a) => (
            <li key={a.id}>
              <ArtifactChipLink chip={a} href={`/w/${workspaceId}/artifacts/${a.id}`} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

const KIND_ICONS: Record<ArtifactChip['kind'], string> = { document: '¶', code: '</>', html: '◧', table: '▦', image: '▣' };

export function ArtifactChipLink({ chip, href }: { chip: ArtifactChip; href: string }) {
  const { t } = useI18n();
  return (
    <Link href={href} className="flex min-h-11 items-center gap-3 rounded-xl border border-line bg-surface px-3 py-2 shadow-card hover:bg-subtle">
      <span aria-hidden className="inline-flex size-8 items-center justify-center rounded-lg bg-accent-soft font-mono text-xs font-bold text-accent-ink">
        {KIND_ICONS[chip.kind]}
      </span>
      <span className="flex flex-col">
        <span className="font-semibold">{chip.title}</span>
        <span className="text-xs text-muted">{t(`artifacts.kind.${chip.kind}`)}</span>
      </span>
    </Link>
  );
}
