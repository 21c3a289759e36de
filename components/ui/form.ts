export type FieldErrors = Record<string, string[] | undefined>;

/** Drops empty entries, so `Object.keys` tells whether anything is wrong. */
export function compactErrors(errors: FieldErrors): FieldErrors {
  return Object.fromEntries(Object.entries(errors).filter(([, messages]) => messages?.length));
}

/**
 * Moves focus to the first field with an error once React has rendered the messages, so a screen
 * reader announces the field together with what is wrong with it.
 */
export function focusFirstError(form: HTMLFormElement | null, errors: FieldErrors) {
  requestAnimationFrame(() => {
    for (const name of Object.keys(errors)) {
      const element = form?.elements.namedItem(name);
      if (element instanceof HTMLElement) {
        element.focus();
        return;
      }
    }
  });
}

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
export const looksLikeEmail = (value: string) => EMAIL.test(value.trim());

/** The API's rule, checked early so nobody waits for a round trip to learn it. */
export const MIN_PASSWORD_LENGTH = 10;
