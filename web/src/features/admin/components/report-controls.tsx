import type { ReportName } from "@etd/contract";
import { QUEUES } from "@etd/contract/endpoints";
import { useMutation } from "@tanstack/react-query";
import { useCallback } from "react";
import { Button, Input, Label, SearchField } from "react-aria-components";
import { ExportCsvLink } from "../../../components/ui/export-link.tsx";
import type { DayRange } from "../utils/report-queries.ts";
import { useDebouncedSearch } from "../../../lib/use-debounced-search.ts";
import { useValidatedForm } from "../../../lib/use-validated-form.ts";
import { validateDateRange, type DateRangeValues } from "../utils/form-rules.ts";
import type { ReportSearch } from "../utils/report-search.ts";
import { ConsoleForm, TextInputField } from "../../../components/ui/form-fields.tsx";

/*
 * The reports' controls (ADMIN-4, ADMIN-5): a From/To date form whose Submit asks the server
 * again, and a search box that narrows the rows already shown. Both live in the URL. Export CSV
 * (issue 16 D, Admin and Manager) downloads the report's table for the dates shown.
 */

export interface ReportScreenProps {
  readonly search: ReportSearch;
  /** Puts the report's state in the URL; `replace` for keystrokes, a new entry for Submit. */
  readonly onSearch: (next: ReportSearch, replace: boolean) => void;
}

export const rangeOf = (search: ReportSearch): DayRange => ({ fromDate: search.fromDate, toDate: search.toDate });

/**
 * The dates and the search box above a report. `load` asks the server for the new dates (and
 * shows its answer as the report wants); the dates then go into the URL.
 */
export const ReportToolbar = ({
  search,
  onSearch,
  load,
  dateLabel,
  searchPlaceholder,
  exportAs,
}: ReportScreenProps & { load: (range: DayRange) => Promise<void>; dateLabel: string; searchPlaceholder: string; exportAs?: ReportName }) => {
  const range = rangeOf(search);
  const submit = async (next: DayRange) => {
    await load(next);
    onSearch({ ...next, search: search.search }, false);
  };
  return (
    <div className="table-toolbar">
      <DateRangeForm key={`${range.fromDate ?? ""}|${range.toDate ?? ""}`} range={range} onSubmit={submit} label={dateLabel} />
      <ReportSearchBox committed={search.search ?? ""} placeholder={searchPlaceholder} onCommit={(text) => onSearch({ ...range, search: text }, true)} />
      {exportAs && (
        <div className="report-export">
          <ExportCsvLink endpoint={QUEUES.exportReport} query={{ report: exportAs, fromDate: range.fromDate, toDate: range.toDate }} />
        </div>
      )}
    </div>
  );
};

const DateRangeForm = ({ range, onSubmit, label }: { range: DayRange; onSubmit: (range: DayRange) => Promise<void>; label: string }) => {
  const validate = useCallback((values: DateRangeValues) => validateDateRange(values), []);
  const form = useValidatedForm({ fromDate: range.fromDate ?? "", toDate: range.toDate ?? "" }, validate);
  const load = useMutation({ mutationFn: onSubmit });
  return (
    <ConsoleForm form={form} className="admin-form admin-form-inline" aria-label={label} onValid={(values) => load.mutate({ fromDate: values.fromDate || undefined, toDate: values.toDate || undefined })}>
      <TextInputField label="From Date" type="date" binding={form.field("fromDate")} />
      <TextInputField label="To Date" type="date" binding={form.field("toDate")} />
      <div className="admin-form-actions">
        <Button type="submit" className="button button-primary" isDisabled={load.isPending}>
          Submit
        </Button>
      </div>
    </ConsoleForm>
  );
};

const ReportSearchBox = ({
  committed,
  onCommit,
  placeholder,
}: {
  committed: string;
  onCommit: (value: string) => void;
  placeholder: string;
}) => {
  const [text, setText] = useDebouncedSearch(committed, onCommit);
  return (
    <SearchField className="field admin-search" value={text} onChange={setText}>
      <Label className="label">Search</Label>
      <Input className="input" placeholder={placeholder} />
    </SearchField>
  );
};
