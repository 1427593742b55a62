/**
 * A group of checkboxes under a legend (what to ask: some documents, some tags): the values ticked, a new set given
 * back on each change. Many options scroll under their legend where the group's class allows it (styles.css).
 */
export function Choices({ legend, options, chosen, onChange, class: extraClass }: {
  legend: string;
  options: { value: string; label: string }[];
  chosen: Set<string>;
  onChange(chosen: Set<string>): void;
  class?: string;
}) {
  return (
    <fieldset class={extraClass ? `filters ${extraClass}` : 'filters'}>
      <legend>{legend}</legend>
      <div class="choices">
        {options.map(({ value, label }) => (
          <label key={value} class="filter">
            <input
              type="checkbox"
              checked={chosen.has(value)}
              onChange={(e) => {
                const next = new Set(chosen);
                if (e.currentTarget.checked) next.add(value);
                else next.delete(value);
                onChange(next);
              }}
            />
            {label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
