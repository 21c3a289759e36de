import type { Translate } from '@/lib/i18n';

/** A failed API call, carrying the API's own sentence and any per-field errors. */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fieldErrors: Record<string, string[]> = {},
  ) {
    super(message);
  }
}

interface Envelope<T> {
  success: boolean;
  data: T | null;
  error: { code: string; message: string; details?: { fieldErrors?: Record<string, string[]> } } | null;
}

/** Calls the app's REST API and unwraps the envelope; anything but success becomes ApiRequestError. */
export async function api<T>(path: string, options: { method?: string; body?: unknown } = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
      headers: options.body === undefined ? undefined : { 'content-type': 'application/json' },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiRequestError(0, 'network', '');
  }
  const envelope = (await response.json().catch(() => null)) as Envelope<T> | null;
  if (response.ok && (envelope === null || envelope.success)) return (envelope?.data ?? null) as T;
  throw new ApiRequestError(
    response.status,
    envelope?.error?.code ?? 'internal',
    envelope?.error?.message ?? '',
    envelope?.error?.details?.fieldErrors ?? {},
  );
}

/** The sentence to show for a failure: the API's own words, or ours when the API could not be reached. */
export function errorText(error: unknown, t: Translate): string {
  if (error instanceof ApiRequestError) {
    if (error.code === 'network') return t('errors.network');
    if (error.message) return error.message;
  }
  return t('errors.generic');
}

/** Field errors keyed by input name, for inline display next to each input. */
export function fieldErrorsOf(error: unknown): Record<string, string[]> {
  return error instanceof ApiRequestError ? error.fieldErrors : {};
}
