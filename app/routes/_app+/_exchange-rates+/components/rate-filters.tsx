import { Cross2Icon, MagnifyingGlassIcon } from "~/components/ui/icons";
import { Button, Flex, IconButton, TextField } from "@radix-ui/themes";
import { useLocation } from "@remix-run/react";
import { useHydrated } from "~/components/ui/use-hydrated";
import type { RatesView } from "./rates-view";

type Props = {
  view: RatesView;
  inputs: string[];
  onChange: (change: Partial<RatesView>, options?: { debounce?: boolean }) => void;
};

/**
 * The filters (spec 1 §2): incoming-gift search ('incoming gifts...'), outgoing-gift
 * search ('outgoing gifts...'), each with a clear button, and the 180 px item dropdown
 * with 'All Items' plus the inputs, sorted. A GET form (CONVENTIONS rule 6): with
 * JavaScript the list filters as you type and the URL follows; without, Apply submits it
 * and a clear button submits `clear=<field>`, which the loader turns into a clean URL.
 */
export function RateFilters({ view, inputs, onChange }: Props) {
  const hydrated = useHydrated();
  const location = useLocation();
  const keep = new URLSearchParams(location.search).getAll("open");
  return (
    <form
      method="get"
      action={location.pathname}
      role="search"
      aria-label="Filter exchange rates"
      className="gt-rate-filters"
      onSubmit={(event) => {
        if (hydrated) event.preventDefault();
      }}
    >
      {/* Enter in a search box submits through this one, never through a clear button. */}
      <button type="submit" hidden tabIndex={-1} aria-hidden />
      {keep.map((key, i) => (
        <input key={`${key}-${i}`} type="hidden" name="open" value={key} />
      ))}
      <Flex gap="2" wrap="wrap" align="center">
        <SearchBox
          name="in"
          label="Search incoming gifts"
          placeholder="incoming gifts..."
          value={view.incoming}
          onChange={(incoming) => onChange({ incoming }, { debounce: true })}
          onClear={() => onChange({ incoming: "" })}
        />
        <SearchBox
          name="out"
          label="Search outgoing gifts"
          placeholder="outgoing gifts..."
          value={view.outgoing}
          onChange={(outgoing) => onChange({ outgoing }, { debounce: true })}
          onClear={() => onChange({ outgoing: "" })}
        />
        <select
          name="item"
          className="gt-select gt-item-select"
          aria-label="Item"
          value={view.item}
          onChange={(event) => onChange({ item: event.currentTarget.value })}
        >
          <option value="">All Items</option>
          {inputs.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
          {/* A filter for an input that is gone still shows what is selected. */}
          {view.item && !inputs.includes(view.item) ? <option value={view.item}>{view.item}</option> : null}
        </select>
        {!hydrated ? (
          <Button type="submit" variant="soft">
            Apply
          </Button>
        ) : null}
      </Flex>
    </form>
  );
}

function SearchBox({
  name,
  label,
  placeholder,
  value,
  onChange,
  onClear,
}: {
  name: string;
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  onClear: () => void;
}) {
  return (
    <TextField.Root
      type="search"
      name={name}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      onKeyDown={(event) => {
        if (event.key === "Escape" && value) {
          event.preventDefault();
          onClear();
        }
      }}
      placeholder={placeholder}
      aria-label={label}
      autoComplete="off"
      className="gt-rate-search"
    >
      <TextField.Slot>
        <MagnifyingGlassIcon />
      </TextField.Slot>
      {value ? (
        <TextField.Slot>
          <IconButton
            type="submit"
            name="clear"
            value={name}
            size="1"
            variant="ghost"
            color="gray"
            aria-label={`Clear ${label.toLowerCase().replace("search ", "")} search`}
            onClick={(event) => {
              event.preventDefault();
              onClear();
            }}
          >
            <Cross2Icon />
          </IconButton>
        </TextField.Slot>
      ) : null}
    </TextField.Root>
  );
}
