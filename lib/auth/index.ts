export {
  DEMO_EMAIL,
  emailSchema,
  getDemoCredentials,
  isTimeZone,
  passwordSchema,
  requestPasswordReset,
  resetPassword,
  signIn,
  signInSchema,
  signUp,
  signUpSchema,
} from './accounts';
export { ACCOUNT_MAIL_STATUSES, mailLanguage, queueEmail } from './account-mail';
export type { AccountMailKind, AccountMailStatus, OutgoingEmail } from './account-mail';
export { isMailboxKey, MAILBOX_COOKIE, mailboxKey, readMailbox } from './mailbox';
export type { Mailbox, OutboxEmail } from './mailbox';
export { issueSession, refreshSession, signOut, REFRESH_TOKEN_DAYS } from './sessions';
export type { SessionTokens } from './sessions';
export {
  ACCESS_COOKIE,
  applyCookies,
  clientIp,
  REFRESH_COOKIE,
  clearedSessionCookies,
  isSecureRequest,
  readCookie,
  serializeCookie,
  sessionCookies,
} from './cookies';
export type { CookieToSet } from './cookies';
export { constantTimeEqual, newToken, sha256 } from './crypto';
export { hashPassword, verifyPassword } from './passwords';
export { signAccessToken, verifyAccessToken } from './jwt';
export { getRequestUser, getSessionUser, refreshSupabaseSession, requireUser } from './session';
