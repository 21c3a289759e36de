'use client';

import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { useI18n } from '@/lib/i18n/client';
import { CloseIcon } from './icons';

type Tone = 'error' | 'success';
interface Toast {
  id: number;
  tone: Tone;
  message: string;
}

const ToastContext = createContext<((message: string, tone?: Tone) => void) | null>(null);

const VISIBLE_MS = 6000;

/**
 * Short-lived feedback for things that happened away from the focus point (a rolled-back
 * change, a saved form). The two live regions always exist, so screen readers announce what is
 * added to them; errors are assertive, confirmations polite.
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(0);

  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((toast) => toast.id !== id)), []);
  const show = useCallback((message: string, tone: Tone = 'success') => {
    const id = ++nextId.current;
    setToasts((all) => [...all.slice(-2), { id, tone, message }]);
  }, []);

  return (
    <ToastContext.Provider value={show}>
      {children}
      <div className="pointer-events-none fixed inset-x-0 bottom-[calc(5rem+env(safe-area-inset-bottom))] z-50 flex flex-col gap-2 px-4 lg:bottom-6 lg:px-6">
        <ToastRegion tone="error" toasts={toasts} onDismiss={dismiss} />
        <ToastRegion tone="success" toasts={toasts} onDismiss={dismiss} />
      </div>
    </ToastContext.Provider>
  );
}

function ToastRegion({ tone, toasts, onDismiss }: { tone: Tone; toasts: Toast[]; onDismiss: (id: number) => void }) {
  return (
    <div role={tone === 'error' ? 'alert' : 'status'} className="flex w-full flex-col items-center gap-2 lg:items-end">
      {toasts
        .filter((toast) => toast.tone === tone)
        .map((toast) => (
          <ToastItem key={toast.id} toast={toast} onDismiss={onDismiss} />
        ))}
    </div>
  );
}

function ToastItem({ toast, onDismiss }: { toast: Toast; onDismiss: (id: number) => void }) {
  const { t } = useI18n();
  useEffect(() => {
    const timer = setTimeout(() => onDismiss(toast.id), VISIBLE_MS);
    return () => clearTimeout(timer);
  }, [toast.id, onDismiss]);

  return (
    <div
      className={`pointer-events-auto flex w-full max-w-md items-start gap-3 rounded-xl border px-4 py-3 text-[0.9375rem] shadow-card ${
        toast.tone === 'error' ? 'border-danger/40 bg-danger-soft' : 'border-line bg-surface'
      }`}
    >
      <p className="flex-1 py-1">{toast.message}</p>
      <button
        type="button"
        onClick={() => onDismiss(toast.id)}
        className="-my-1 -mr-2 inline-flex size-11 shrink-0 items-center justify-center rounded-lg text-muted hover:bg-subtle"
        aria-label={t('common.dismiss')}
      >
        <CloseIcon />
      </button>
    </div>
  );
}

export function useToast() {
  const show = useContext(ToastContext);
  if (!show) throw new Error('useToast must be used inside <ToastProvider>.');
  return show;
}
