import { useId } from "react";
import { firstUse, SELECT_TRIGGER_KEYS, StandInButton, useFirstUse } from "../../../components/ui/first-use.tsx";
// The props are the select's; a type import is erased, so the select's code still loads on first use only.
import type { RowsPerPageProps } from "./rows-per-page-select.tsx";

const rowsPerPage = firstUse<RowsPerPageProps>(() => import("./rows-per-page-select.tsx").then((module) => module.RowsPerPageSelect));

/**
 * The rows-per-page selector (QUEUE-2: 10, 25, 50, 100, 500, All; ADMIN-3: 5, 10, 20, 50, All).
 * Every list shows it, few change it: the select's code is fetched on first use
 * (components/ui/first-use.tsx). Until then its label and button stand in, as react-aria's Select
 * draws them (a label, a button named by the value and the label).
 */
export const RowsPerPage = (props: RowsPerPageProps) => {
  const { Component, resume, standIn } = useFirstUse(rowsPerPage);
  const labelId = useId();
  const valueId = useId();
  if (Component) return <Component {...props} resume={resume} />;
  return (
    <div className="rows-per-page">
      <span className="react-aria-Label" id={labelId}>
        Rows per page
      </span>
      <StandInButton
        standIn={standIn}
        keys={SELECT_TRIGGER_KEYS}
        className="select-button rows-per-page-button"
        aria-labelledby={`${valueId} ${labelId}`}
        aria-haspopup="listbox"
        aria-expanded={false}
      >
        <span className="react-aria-SelectValue" id={valueId}>
          {String(props.size)}
        </span>
        <span aria-hidden="true">▾</span>
      </StandInButton>
    </div>
  );
};
