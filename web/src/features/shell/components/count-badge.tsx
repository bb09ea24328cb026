/** A folder's count beside its label; empty while the counts load, so no false zero shows. */
export const CountBadge = ({ value, name }: { value: number | undefined; name: string }) =>
  value === undefined ? null : (
    <span className="badge" data-count={name}>
      {value}
    </span>
  );
