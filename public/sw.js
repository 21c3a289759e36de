// Multiverbe's service worker: served from the origin root (scope "/") with no caching of its own, so
// next.config.ts gives it `Cache-Control: no-cache`. It caches nothing and handles no fetch: the app
// always talks to the server. Its one job is "Approve from the lock screen" (docs/notifications.md):
// show each pushed proposal with Approve and Ignore, and post the chosen one to the decisions API with
// the person's session cookie, bound to the hash of the proposal that was pushed.

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('push', (event) => {
  let payload = null;
  try {
    payload = event.data ? event.data.json() : null;
  } catch {
    payload = null;
  }
  if (!payload || payload.v !== 1) return;
  event.waitUntil(
    self.registration.showNotification(payload.title, {
      body: payload.body,
      tag: payload.tag,
      icon: '/icons/icon-192.png',
      badge: '/icons/badge-96.png',
      actions: payload.actions,
      data: payload.data,
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  const notification = event.notification;
  notification.close();
  event.waitUntil(answer(event.action, notification.data || {}, notification.tag));
});

/** Approve or Ignore from the notification; tapping the notification itself opens the card. */
async function answer(action, data, tag) {
  if (action !== 'approve' && action !== 'ignore') return openApp(data.url);
  const verb = action === 'approve' ? 'approve' : 'reject';
  let response;
  try {
    response = await fetch(`/api/workspaces/${data.workspaceId}/decisions/${data.decisionId}/${verb}`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: verb === 'approve' ? JSON.stringify({ argsHash: data.argsHash }) : undefined,
    });
  } catch {
    // Offline: the card is still on the Home, where the person can decide once connected.
    return openApp(data.url);
  }
  // The session is gone on this device: the app asks to sign in, then shows the card.
  if (response.status === 401) return openApp(data.url);
  const words = data.words || {};
  if (response.ok) {
    return self.registration.showNotification(action === 'approve' ? words.approved : words.ignored, { tag, icon: '/icons/icon-192.png', data: { url: data.url } });
  }
  // Already decided on another device, expired, changed, or not this person's to decide: the server's own words.
  const envelope = await response.json().catch(() => null);
  const reason = envelope && envelope.error ? envelope.error.message : '';
  return self.registration.showNotification(words.failed, { body: reason, tag, icon: '/icons/icon-192.png', data: { url: data.url } });
}

async function openApp(url) {
  const target = new URL(url || '/', self.location.origin).href;
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  for (const client of windows) {
    if (new URL(client.url).origin === self.location.origin && 'focus' in client) {
      await client.navigate(target).catch(() => null);
      return client.focus();
    }
  }
  return self.clients.openWindow(target);
}
