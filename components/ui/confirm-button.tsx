'use client';

import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useI18n } from '@/lib/i18n/client';
import { Button } from './button';

/**
 * A destructive action that asks once, in place: no modal, nothing to dismiss, and focus goes to
 * the confirmation and back to the trigger if the person changes their mind.
 */
export function ConfirmButton({
  children,
  label,
  question,
  confirmLabel,
  onConfirm,
  pending = false,
}: {
  children: ReactNode;
  /** Accessible name of the trigger when its visible text needs context ("Remove Ada"). */
  label?: string;
  question: string;
  confirmLabel: string;
  onConfirm: () => void;
  pending?: boolean;
}) {
  const { t } = useI18n();
  const [asking, setAsking] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  const wasAsking = useRef(false);

  useEffect(() => {
    if (wasAsking.current && !asking) trigger.current?.focus();
    wasAsking.current = asking;
  }, [asking]);

  if (!asking) {
    return (
      <Button ref={trigger} variant="secondary" aria-label={label} onClick={() => setAsking(true)} pending={pending}>
        {children}
      </Button>
    );
  }
  return (
    <div role="group" aria-label={question} className="flex flex-col gap-2">
      <p className="text-[0.9375rem] font-medium">{question}</p>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="danger"
          autoFocus
          onClick={() => {
            setAsking(false);
            onConfirm();
          }}
        >
          {confirmLabel}
        </Button>
        <Button variant="ghost" onClick={() => setAsking(false)}>
          {t('common.cancel')}
        </Button>
      </div>
    </div>
  );
}
