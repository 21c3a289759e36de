'use client';

import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';

export interface RateRow {
  /** A tier's share of the quota in percent, or a product's name. */
  key: string;
  /** The rate in percent, as typed. */
  rate: string;
}

/** Rows of "something → rate", the plan's tiers or its per-product rates, with add and remove. */
export function RateRows(props: {
  idPrefix: string;
  name: string;
  legend: string;
  hint: string;
  keyLabel: (n: number) => string;
  rateLabel: (n: number) => string;
  removeLabel: (n: number) => string;
  addLabel: string;
  numericKey?: boolean;
  rows: RateRow[];
  errors?: string[];
  onChange: (rows: RateRow[]) => void;
}) {
  const { idPrefix, rows, onChange } = props;
  const set = (i: number, row: RateRow) => onChange(rows.map((r, j) => (j === i ? row : r)));
  const errorId = `${idPrefix}-error`;
  return (
    <fieldset className="flex flex-col gap-3" aria-describedby={props.errors?.length ? errorId : undefined}>
      <legend className="text-sm font-semibold">{props.legend}</legend>
      <p className="text-sm text-muted">{props.hint}</p>
      {rows.map((row, i) => (
        <div key={i} className="grid grid-cols-2 gap-2 rounded-xl bg-subtle p-3">
          <TextField
            id={`${idPrefix}-${i}-key`}
            name={i === 0 ? props.name : undefined}
            label={props.keyLabel(i + 1)}
            inputMode={props.numericKey ? 'numeric' : undefined}
            value={row.key}
            onChange={(e) => set(i, { ...row, key: e.target.value })}
          />
          <TextField id={`${idPrefix}-${i}-rate`} label={props.rateLabel(i + 1)} inputMode="decimal" value={row.rate} onChange={(e) => set(i, { ...row, rate: e.target.value })} />
          <div className="col-span-2">
            <Button variant="ghost" onClick={() => onChange(rows.filter((_, j) => j !== i))}>
              {props.removeLabel(i + 1)}
            </Button>
          </div>
        </div>
      ))}
      {props.errors?.length ? (
        <p id={errorId} className="text-sm font-medium text-danger">
          {props.errors.join(' ')}
        </p>
      ) : null}
      <div>
        <Button variant="secondary" onClick={() => onChange([...rows, { key: '', rate: '' }])}>
          {props.addLabel}
        </Button>
      </div>
    </fieldset>
  );
}
