import type { MessageAuthorKind } from '@/lib/chat';
import type { Translate } from '@/lib/i18n';
import type { ConversationView, ThreadStatus } from './types';

/** A person's initial on a round tile; an agent's on a square one, so the two read apart at a glance. */
export function Avatar({ name, kind, small = false }: { name: string; kind: MessageAuthorKind; small?: boolean }) {
  const shape = kind === 'agent' ? 'rounded-lg bg-accent-soft text-accent-ink' : 'rounded-full bg-subtle text-ink';
  return (
    <span aria-hidden className={`flex shrink-0 items-center justify-center font-semibold ${shape} ${small ? 'size-7 text-xs' : 'size-9 text-sm'}`}>
      {name.trim().charAt(0).toUpperCase() || '·'}
    </span>
  );
}

/** Online or offline, as a dot and a word: colour is never the only signal. */
export function Presence({ online, t }: { online: boolean; t: Translate }) {
  return (
    <span className="inline-flex items-center gap-1 text-xs text-muted">
      <span aria-hidden className={`size-2 rounded-full ${online ? 'bg-success' : 'border border-line-strong'}`} />
      {online ? t('chat.online') : t('chat.offline')}
    </span>
  );
}

const STATUS_STYLE: Record<ThreadStatus, { icon: string; className: string }> = {
  open: { icon: '●', className: 'bg-accent-soft text-accent-ink' },
  resolved: { icon: '✓', className: 'bg-success-soft text-success' },
  abandoned: { icon: '–', className: 'bg-subtle text-muted' },
};

export function ThreadStatusBadge({ status, t }: { status: ThreadStatus; t: Translate }) {
  const style = STATUS_STYLE[status];
  return (
    <span className={`inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-semibold ${style.className}`}>
      <span aria-hidden>{style.icon}</span>
      {t(`chat.thread.${status}`)}
    </span>
  );
}

/** What a conversation is called in lists and headers. */
export function conversationTitle(conversation: ConversationView, viewerId: string, t: Translate): string {
  const others = conversation.members.filter((m) => m.id !== viewerId);
  switch (conversation.kind) {
    case 'channel':
      return `#${conversation.name}`;
    case 'dm':
      return others.length ? others.map((m) => m.name).join(', ') : t('chat.justYou');
    case 'delegation':
      return t('chat.delegationTitle', { names: conversation.members.filter((m) => m.kind === 'agent').map((m) => m.name).join(' → ') });
    case 'thread':
      return t('chat.sideThread');
    case 'customer':
      return t('chat.customerTitle', { name: conversation.name ?? '' });
  }
}
