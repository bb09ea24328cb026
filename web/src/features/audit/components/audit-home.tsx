import { AUDIT } from "@etd/contract/endpoints";
import { useId, useState } from "react";
import { easternInputToIso } from "../audit-model.ts";
import { rangeProblem } from "../audit-search.ts";
import { ExportButton } from "./export-button.tsx";
import { MomentInput } from "./moment-input.tsx";
import { OrderIdBox } from "./order-id-box.tsx";

/** /admin/audit: open an order's replay, or export a time range of the whole log. */
export const AuditHome = () => {
  const id = useId();
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const range = { from: easternInputToIso(from), to: easternInputToIso(to) };
  const problem = from || to ? rangeProblem(range.from, range.to) : undefined;
  return (
    <section className="page audit-home" aria-labelledby="audit-home-title">
      <h1 id="audit-home-title" className="page-title">
        Audit
      </h1>
      <section className="card audit-panel" aria-labelledby={`${id}-replay`}>
        <h2 id={`${id}-replay`} className="card-title">
          Order replay
        </h2>
        <p className="muted">Every event of an order, the order as it stood after any of them, and what changed between two moments.</p>
        <OrderIdBox />
      </section>
      <section className="card audit-panel" aria-labelledby={`${id}-export`}>
        <h2 id={`${id}-export`} className="card-title">
          Export the log
        </h2>
        <p className="muted">Every event recorded in a time range (the moment the log stored it), as JSON lines with its hashes, for verifying offline.</p>
        <div className="audit-form">
          <MomentInput id={`${id}-from`} name="from" label="From" value={from} onChange={setFrom} />
          <MomentInput id={`${id}-to`} name="to" label="To" value={to} onChange={setTo} />
          <ExportButton
            label="Export log"
            fileName="audit-log.jsonl"
            isDisabled={!range.from || !range.to || problem !== undefined}
            endpoint={AUDIT.exportLogRange}
            call={() => (range.from && range.to ? { query: { from: range.from, to: range.to } } : undefined)}
          />
        </div>
        {problem ? <p className="field-error">{problem}</p> : null}
      </section>
    </section>
  );
};
