import type { InputHTMLAttributes, TextareaHTMLAttributes } from 'react';

/** A multi-line field in the style of components/ui/field: label above, hint and errors below, wired by id. */
export function TextAreaField({
  id,
  label,
  hint,
  errors,
  className = '',
  ...textarea
}: TextareaHTMLAttributes<HTMLTextAreaElement> & { id: string; label: string; hint?: string; errors?: string[] }) {
  const invalid = Boolean(errors?.length);
  const describedBy = [hint ? `${id}-hint` : '', invalid ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-semibold">
        {label}
      </label>
      <textarea
        id={id}
        name={id}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        className={`min-h-28 w-full rounded-xl border border-line-strong bg-surface px-3.5 py-2.5 text-base text-ink placeholder:text-muted aria-[invalid=true]:border-danger disabled:opacity-60 ${className}`}
        {...textarea}
      />
      {hint && (
        <p id={`${id}-hint`} className="text-sm text-muted">
          {hint}
        </p>
      )}
      {invalid && (
        <p id={`${id}-error`} className="text-sm font-medium text-danger">
          {errors!.join(' ')}
        </p>
      )}
    </div>
  );
}

/** A checkbox with its label as the whole 44 px tall target. */
export function CheckboxField({ id, label, ...input }: InputHTMLAttributes<HTMLInputElement> & { id: string; label: string }) {
  return (
    <label htmlFor={id} className="flex min-h-11 cursor-pointer items-center gap-3 text-[0.9375rem]">
      <input id={id} name={id} type="checkbox" className="size-5 shrink-0 accent-[var(--accent)]" {...input} />
      {label}
    </label>
  );
}
