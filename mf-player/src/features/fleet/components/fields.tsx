import { Label } from '@pagecast/ui';
import type { ReactNode } from 'react';

/** A labelled select: the fleet forms have many (the target, what shows, for how long, the change, the group). */
export function SelectField({
  id,
  label,
  value,
  onChange,
  children,
  narrow = false,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  children: ReactNode;
  narrow?: boolean;
}) {
  return (
    <div className={narrow ? 'pc-field pf-narrow' : 'pc-field'}>
      <Label htmlFor={id}>{label}</Label>
      <select id={id} className="pc-select" value={value} onChange={(e) => onChange(e.target.value)}>
        {children}
      </select>
    </div>
  );
}

/** Options for ids with names (groups, playlists), after an optional first "choose" one. */
export function NameOptions({ items, none }: { items: ReadonlyArray<{ id: string; name: string }>; none?: string }) {
  return (
    <>
      {none !== undefined ? <option value="">{none}</option> : null}
      {items.map((item) => (
        <option key={item.id} value={item.id}>
          {item.name}
        </option>
      ))}
    </>
  );
}

/** A set of checkboxes over named things (screens, groups): ticking one adds it to the set, unticking removes it. */
export function CheckList({
  legend,
  legendHidden = false,
  nested = false,
  items,
  checked,
  onChange,
  empty,
}: {
  legend: string;
  legendHidden?: boolean;
  nested?: boolean;
  items: ReadonlyArray<{ id: string; name: string }>;
  checked: ReadonlySet<string>;
  onChange: (next: Set<string>) => void;
  /** said when there is nothing to tick */
  empty?: string;
}) {
  return (
    <fieldset className={nested ? 'pf-checks pf-checks--nested' : 'pf-checks'}>
      <legend className={legendHidden ? 'pc-visually-hidden' : undefined}>{legend}</legend>
      {items.length === 0 && empty ? <p className="pc-muted">{empty}</p> : null}
      {items.map((item) => (
        <label key={item.id} className="pf-check">
          <input
            type="checkbox"
            checked={checked.has(item.id)}
            onChange={(e) => {
              const next = new Set(checked);
              if (e.target.checked) next.add(item.id);
              else next.delete(item.id);
              onChange(next);
            }}
          />
          {item.name}
        </label>
      ))}
    </fieldset>
  );
}
