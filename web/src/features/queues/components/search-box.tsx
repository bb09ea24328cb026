import type { KeyboardEvent, RefObject } from "react";
import { Input, Label, SearchField } from "react-aria-components";
import { announce } from "../../../components/ui/live-region.tsx";
import { useDebouncedSearch } from "../../../lib/use-debounced-search.ts";
import { MAX_SEARCH_LENGTH } from "../queue-search.ts";

/**
 * QUEUE-2's search box: the text reaches `onSearch` 500 ms after the last keystroke (or at once on
 * Enter). Escape leaves the box with its text searched at once (issue 16 C: `/`, type, Escape,
 * then j and k move through what it found), instead of react-aria's clearing it.
 */
export const SearchBox = ({ value, onSearch, inputRef }: { value: string; onSearch: (text: string) => void; inputRef?: RefObject<HTMLInputElement | null> }) => {
  const [text, setText] = useDebouncedSearch(value, onSearch);
  const leave = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== "Escape" || !(event.target instanceof HTMLInputElement)) return;
    // Captured before the field's own handler, which would clear the text.
    event.stopPropagation();
    event.preventDefault();
    if (text !== value) onSearch(text);
    event.target.blur();
    announce(text.trim() === "" ? "Left the search box." : `Left the search box; searching for ${text.trim()}.`);
  };
  return (
    <SearchField
      className="queue-search"
      value={text}
      onChange={setText}
      onSubmit={(submitted) => onSearch(submitted)}
      maxLength={MAX_SEARCH_LENGTH}
    >
      <Label className="visually-hidden">Search</Label>
      <Input className="input" placeholder="Search" ref={inputRef} onKeyDownCapture={leave} />
    </SearchField>
  );
};
