/** A moment as an auditor types it: a datetime-local field read as US Eastern wall time, to the second. */
export const MomentInput = ({ id, label, name, value, onChange }: { id: string; label: string; name: string; value: string; onChange: (value: string) => void }) => (
  <div className="field">
    <label className="label" htmlFor={id}>
      {label} <span className="muted">(US Eastern)</span>
    </label>
    <input id={id} name={name} className="input" type="datetime-local" step={1} value={value} onChange={(event) => onChange(event.target.value)} />
  </div>
);
