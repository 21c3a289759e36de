import { fieldErrorsOf } from '@/components/api/client';
import type { FieldErrors } from '@/components/ui/form';

/** The API's field errors under the form's own fields: `rules.0.value` is an error of the rules. */
export function formErrors(error: unknown): FieldErrors {
  const errors: Record<string, string[]> = {};
  for (const [path, messages] of Object.entries(fieldErrorsOf(error))) (errors[path.split('.')[0]!] ??= []).push(...messages);
  return errors;
}

/** A failure none of the form's fields can show under, so the form says it above them. */
export const unplaced = (error: unknown, fields: string[]) => Boolean(error) && !fields.some((field) => formErrors(error)[field]?.length);
