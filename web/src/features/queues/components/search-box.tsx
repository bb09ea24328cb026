import { Input, Label, SearchField } from "react-aria-components";
import { useDebouncedSearch } from "../hooks/use-debounced-search.ts";
import { MAX_SEARCH_LENGTH } from "../queue-search.ts";

/** QUEUE-2's search box: the text reaches `onSearch` 500 ms after the last keystroke (or at once on Enter). */
export const SearchBox = ({ value, onSearch }: { value: string; onSearch: (text: string) => void }) => {
  const [text, setText] = useDebouncedSearch(value, onSearch);
  return (
    <SearchField className="queue-search" value={text} onChange={setText} onSubmit={(submitted) => onSearch(submitted)} maxLength={MAX_SEARCH_LENGTH}>
      <Label className="visually-hidden">Search</Label>
      <Input className="input" placeholder="Search" />
    </SearchField>
  );
};
