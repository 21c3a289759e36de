import type { InputHTMLAttributes } from 'react';

/** A checkbox with its label as the whole 44 px tall target. */
export function CheckboxField({ id, label, ...input }: InputHTMLAttributes<HTMLInputElement> & { id: string; label: string }) {
  return (
    <label htmlFor={id} className="flex min-h-11 cursor-pointer items-center gap-3 text-[0.9375rem]">
      <input id={id} name={id} type="checkbox" className="size-5 shrink-0 accent-[var(--accent)]" {...input} />
      {label}
    </label>
  );
}
