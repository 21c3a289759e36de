import type { Namespace } from './index';

/**
 * The message namespaces each part of the app sends to the browser. Server components translate on the
 * server with the whole dictionary; client components get only what the root layout (`root`) and the
 * `<ClientMessages segment>` of the layouts and page above them sent, so a page's HTML does not carry
 * every string of the app. A layout wraps everything it renders in its `ClientMessages`.
 * `client-messages.test.ts` walks each route's imports and fails when a client component uses a
 * namespace that nothing above it sends.
 */
export const CLIENT_MESSAGES = {
  root: ['common', 'errors'],
  auth: ['fields', 'validation', 'signIn', 'signUp', 'reset', 'resetConfirm'],
  invite: ['invitePage', 'signOut'],
  newWorkspace: ['createWorkspace', 'validation', 'workspace'],
  workspace: ['nav', 'navDaily', 'role', 'signOut', 'switcher', 'workspace'],
  home: ['home', 'needs', 'done', 'delivery', 'planets', 'cards', 'promote', 'nextSteps'],
  onboarding: ['onboarding'],
  chat: ['chat', 'artifacts', 'cards', 'metric'],
  artifacts: ['artifacts', 'cards', 'metric'],
  topics: ['topics'],
  pipeline: ['pipeline', 'sales'],
  bookings: ['bookings', 'delivery'],
  customers: ['customers'],
  settings: [
    ...['members', 'invitations', 'invite', 'leave', 'fields', 'validation', 'workspaceSettings', 'deleteWorkspace'],
    ...['autonomy', 'action', 'cards', 'channels', 'delivery', 'done', 'needs', 'outbox', 'planets', 'promote', 'usage', 'topics', 'routines', 'agentsScreen', 'dataImport', 'pushSettings', 'connections'],
  ],
} as const satisfies Record<string, readonly Namespace[]>;

export type ClientMessagesSegment = keyof typeof CLIENT_MESSAGES;
