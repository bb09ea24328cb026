import { Button, Label, ListBox, ListBoxItem, Popover, Select, SelectValue } from "react-aria-components";
import type { PageSize } from "../queue-search.ts";

/** The rows-per-page selector (QUEUE-2: 10, 25, 50, 100, 500, All; ADMIN-3: 5, 10, 20, 50, All). */
export const RowsPerPage = ({ size, sizes, onChange }: { size: PageSize; sizes: readonly PageSize[]; onChange: (size: PageSize) => void }) => (
  <Select
    className="rows-per-page"
    value={String(size)}
    onChange={(key) => {
      const chosen = sizes.find((option) => String(option) === String(key));
      if (chosen !== undefined && chosen !== size) onChange(chosen);
    }}
  >
    <Label>Rows per page</Label>
    <Button className="select-button rows-per-page-button">
      <SelectValue />
      <span aria-hidden="true">▾</span>
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
