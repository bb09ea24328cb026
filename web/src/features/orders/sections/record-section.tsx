import type { RecordSection, Row } from "./order-rows.ts";

/*
 * One record section as staff read it: a labelled <section> with the spec's name as its <h2>, and
 * each group of rows as a definition list (label → value), the same markup in every section so a
 * screen reader announces "term, definition" and tests read rows the same way everywhere.
 */

export const RecordRows = ({ rows }: { readonly rows: readonly Row[] }) => (
  <dl className="record-rows">
    {rows.map((row, index) => (
      <div className="record-row" key={`${row.label}-${index}`}>
        <dt>{row.label}</dt>
        <dd>
          {row.href ? (
            <a href={row.href} target="_blank" rel="noopener noreferrer">
              {row.value}
            </a>
          ) : (
            row.value
          )}
        </dd>
      </div>
    ))}
  </dl>
);

export const RecordSectionView = ({ section }: { readonly section: RecordSection }) => {
  const headingId = `order-section-${section.id}`;
  const rows = section.groups.reduce((sum, group) => sum + group.rows.length, 0);
  return (
    <section className="record-section" aria-labelledby={headingId} data-section={section.id}>
      <h2 id={headingId}>{section.title}</h2>
      {rows === 0 ? <p className="record-empty">No details given.</p> : null}
      {section.groups
        .filter((group) => group.rows.length > 0)
        .map((group, index) => (
          <div className="record-group" key={group.title ?? `group-${index}`}>
            {group.title ? <h3>{group.title}</h3> : null}
            <RecordRows rows={group.rows} />
          </div>
        ))}
    </section>
  );
};
