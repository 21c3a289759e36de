'use client';

import { useEffect, useId, useState } from 'react';
import { api, errorText } from '@/components/api/client';
import { useI18n } from '@/lib/i18n/client';

type State = 'loading' | 'unsupported' | 'unavailable' | 'denied' | 'on' | 'off';

/** The VAPID public key (base64url) as the bytes PushManager.subscribe wants. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const raw = atob(base64url.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

const sameKey = (a: ArrayBuffer | null, b: Uint8Array) => a !== null && a.byteLength === b.length && new Uint8Array(a).every((x, i) => x === b[i]);

const supported = () => typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

/**
 * "Notifications on this device": subscribes this browser to Web Push with the server's VAPID key and
 * registers the subscription for the signed-in person, or takes it back. The switch says on only when
 * the server has this device for this person, not merely when the browser has a subscription (another
 * person may have turned it on before signing out).
 */
export function PushSwitch({ publicKey }: { publicKey: string | null }) {
  const { t } = useI18n();
  const labelId = useId();
  const statusId = useId();
  const [state, setState] = useState<State>('loading');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  useEffect(() => {
    let live = true;
    (async (): Promise<State> => {
      if (!supported()) return 'unsupported';
      if (!publicKey) return 'unavailable';
      if (Notification.permission === 'denied') return 'denied';
      const registration = await navigator.serviceWorker.ready;
      const subscription = await registration.pushManager.getSubscription();
      if (!subscription) return 'off';
      const { subscribed } = await api<{ subscribed: boolean }>('/api/push/subscriptions/status', { body: { endpoint: subscription.endpoint } });
      return subscribed ? 'on' : 'off';
    })().then(
      (next) => live && setState(next),
      () => live && setState('off'),
    );
    return () => {
      live = false;
    };
  }, [publicKey]);

  async function toggle() {
    if (!publicKey) return;
    setBusy(true);
    setError('');
    try {
      const registration = await navigator.serviceWorker.ready;
      if (state === 'on') {
        const subscription = await registration.pushManager.getSubscription();
        if (subscription) {
          await api('/api/push/subscriptions', { method: 'DELETE', body: { endpoint: subscription.endpoint } });
          await subscription.unsubscribe();
        }
        setState('off');
        return;
      }
      if ((await Notification.requestPermission()) !== 'granted') {
        setState(Notification.permission === 'denied' ? 'denied' : 'off');
        return;
      }
      let subscription = await registration.pushManager.getSubscription();
      // A subscription made with another key (the server's pair changed) cannot receive our pushes.
      if (subscription && !sameKey(subscription.options.applicationServerKey, keyBytes(publicKey))) {
        await subscription.unsubscribe();
        subscription = null;
      }
      subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) });
      await api('/api/push/subscriptions', { body: subscription.toJSON() });
      setState('on');
    } catch (failure) {
      setError(t('pushSettings.failed', { reason: errorText(failure, t) }));
    } finally {
      setBusy(false);
    }
  }

  const usable = state === 'on' || state === 'off';
  const on = state === 'on';
  const note =
    state === 'unsupported' ? t('pushSettings.unsupported')
    : state === 'unavailable' ? t('pushSettings.unavailable')
    : state === 'denied' ? t('pushSettings.denied')
    : state === 'on' ? t('pushSettings.on')
    : state === 'off' ? t('pushSettings.off')
    : '';

  return (
    <div className="flex flex-col gap-3">
      <button
        type="button"
        role="switch"
        aria-checked={on}
        aria-labelledby={labelId}
        aria-describedby={statusId}
        disabled={!usable || busy}
        onClick={toggle}
        className="-mx-2 inline-flex min-h-11 items-center justify-between gap-3 rounded-xl px-2 text-left font-semibold hover:bg-subtle disabled:opacity-60"
      >
        <span id={labelId}>{t('pushSettings.switch')}</span>
        <span aria-hidden className={`relative inline-flex h-6 w-10 shrink-0 items-center rounded-full border transition-colors ${on ? 'border-accent bg-accent' : 'border-line-strong bg-subtle'}`}>
          <span className={`size-4.5 rounded-full shadow-card transition-transform motion-reduce:transition-none ${on ? 'translate-x-[1.125rem] bg-on-accent' : 'translate-x-0.5 bg-line-strong'}`} />
        </span>
      </button>
      <p id={statusId} aria-live="polite" className="text-sm text-pretty text-muted">
        {note}
      </p>
      {error && (
        <p role="alert" className="text-sm text-pretty text-danger">
          {error}
        </p>
      )}
    </div>
  );
}
