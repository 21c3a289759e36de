import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react';

interface FieldShellProps {
  id: string;
  label: string;
  hint?: string;
  errors?: string[];
  children: (describedBy: string | undefined, invalid: boolean) => ReactNode;
}

/** Label above, hint and errors below, all wired to the control with ids screen readers follow. */
function FieldShell({ id, label, hint, errors, children }: FieldShellProps) {
  const invalid = Boolean(errors?.length);
  const describedBy = [hint ? `${id}-hint` : '', invalid ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-semibold">
        {label}
      </label>
      {children(describedBy, invalid)}
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

const box =
  'w-full rounded-xl border border-line-strong bg-surface px-3.5 text-base text-ink placeholder:text-muted ' +
  'aria-[invalid=true]:border-danger disabled:opacity-60';
const control = `min-h-11 ${box}`;

interface TextFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  id: string;
  label: string;
  hint?: string;
  errors?: string[];
}

export function TextField({ id, label, hint, errors, className = '', ...input }: TextFieldProps) {
  return (
    <FieldShell id={id} label={label} hint={hint} errors={errors}>
      {(describedBy, invalid) => (
        <input
          id={id}
          name={id}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          className={`${control} ${className}`}
          {...input}
        />
      )}
    </FieldShell>
  );
}

interface SelectFieldProps extends SelectHTMLAttributes<HTMLSelectElement> {
  id: string;
  label: string;
  hint?: string;
  errors?: string[];
  options: { value: string; label: string }[];
}

export function SelectField({ id, label, hint, errors, options, className = '', ...select }: SelectFieldProps) {
  return (
    <FieldShell id={id} label={label} hint={hint} errors={errors}>
      {(describedBy, invalid) => (
        <select
          id={id}
          name={id}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          className={`${control} ${className}`}
          {...select}
        >
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </FieldShell>
  );
}

interface TextAreaFieldProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  id: string;
  label: string;
  hint?: string;
  errors?: string[];
}

export function TextAreaField({ id, label, hint, errors, className = '', ...textarea }: TextAreaFieldProps) {
  return (
    <FieldShell id={id} label={label} hint={hint} errors={errors}>
      {(describedBy, invalid) => (
        <textarea
          id={id}
          name={id}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          className={`${box} min-h-28 py-2.5 ${className}`}
          {...textarea}
        />
      )}
    </FieldShell>
  );
}
