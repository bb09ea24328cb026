import { useRef } from "react";
import { Button, Label, ListBox, ListBoxItem, Popover, Select, SelectStateContext, SelectValue } from "react-aria-components";
import type { ResumeProps } from "../../../components/ui/first-use.tsx";
import { ResumeFirstPress } from "../../../components/ui/resume-first-press.tsx";
import type { PageSize } from "../queue-search.ts";

export interface RowsPerPageProps {
  readonly size: PageSize;
  readonly sizes: readonly PageSize[];
  readonly onChange: (size: PageSize) => void;
}

const listBuilt = (state: { readonly collection: { readonly size: number } }) => state.collection.size > 0;

/** The rows-per-page selector itself (react-aria's Select), fetched on first use by rows-per-page.tsx. */
export const RowsPerPageSelect = ({ size, sizes, onChange, resume }: RowsPerPageProps & ResumeProps) => {
  const trigger = useRef<HTMLButtonElement>(null);
  return (
    <Select
      className="rows-per-page"
      value={String(size)}
      onChange={(key) => {
        const chosen = sizes.find((option) => String(option) === String(key));
        if (chosen !== undefined && chosen !== size) onChange(chosen);
      }}
    >
      <Label>Rows per page</Label>
      <Button ref={trigger} className="select-button rows-per-page-button">
        <SelectValue />
        <span aria-hidden="true">▾</span>
        <ResumeFirstPress resume={resume} state={SelectStateContext} ready={listBuilt} trigger={trigger} />
      </Button>
      <Popover className="popover">
        <ListBox className="listbox">
          {sizes.map((option) => (
            <ListBoxItem key={String(option)} id={String(option)} className="listbox-item">
              {String(option)}
            </ListBoxItem>
          ))}
        </ListBox>
      </Popover>
    </Select>
  );
};
