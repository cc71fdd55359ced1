import { Button, Flex, TextField } from "@radix-ui/themes";
import { Form, Link, useLocation, useNavigate } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { MagnifyingGlassIcon } from "~/components/ui/icons";
import { useHydrated } from "~/components/ui/use-hydrated";
import { SEARCH_MAX, SEARCH_PARAM } from "~/utils/list-search";

/** How long typing pauses before the URL (and the list) follows. */
const TYPE_PAUSE_MS = 250;

/**
 * The "Search by nick or account id" box of a list screen (issue 19 item 14). A GET form on
 * the page's own path (CONVENTIONS rule 6): without JavaScript Search submits `?q=`, keeping
 * the page's other list params (`keep`) as hidden fields; with JavaScript the URL follows the
 * typing (replacing the history entry). The loader filters; this only writes the URL.
 */
export function ListSearch({
  query,
  keep,
  label = "Search by nick or account id",
  param = SEARCH_PARAM,
  placeholder = "nick or account id...",
}: {
  query: string;
  keep: readonly string[];
  label?: string;
  /** The URL param of the query (`q` unless a page has several searches, as Trading Planets does). */
  param?: string;
  placeholder?: string;
}) {
  const location = useLocation();
  const navigate = useNavigate();
  const hydrated = useHydrated();
  const [value, setValue] = useState(query);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const input = useRef<HTMLInputElement>(null);
  // Back/forward or a Clear link change the URL: the box follows it, unless the operator is
  // typing in it (an answer for "ab" must not undo the "c" typed since).
  useEffect(() => {
    if (document.activeElement !== input.current) setValue(query);
  }, [query]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const params = new URLSearchParams(location.search);
  const kept = keep.flatMap((name) => params.getAll(name).map((v) => [name, v] as const));
  const hrefFor = (q: string) => {
    // Read the URL as it is now, not as it was at render (a filter click may have landed since).
    const next = new URLSearchParams(window.location.search);
    for (const name of [...next.keys()]) if (name !== param && !keep.includes(name)) next.delete(name);
    if (q.trim()) next.set(param, q.trim());
    else next.delete(param);
    const s = next.toString();
    return `${location.pathname}${s ? `?${s}` : ""}`;
  };
  const go = (q: string) => navigate(hrefFor(q), { replace: true, preventScrollReset: true });
  const clearParams = new URLSearchParams(kept.map(([n, v]) => [n, v]));
  const clearHref = `${location.pathname}${clearParams.size ? `?${clearParams}` : ""}`;

  return (
    <Form
      method="get"
      action={location.pathname}
      role="search"
      aria-label={label}
      className="gt-list-search"
      onSubmit={(event) => {
        event.preventDefault();
        clearTimeout(timer.current);
        go(value);
      }}
    >
      {kept.map(([name, v], i) => (
        <input key={`${name}-${i}`} type="hidden" name={name} value={v} />
      ))}
      <Flex gap="2" align="center" wrap="wrap">
        <TextField.Root
          type="search"
          name={param}
          aria-label={label}
          placeholder={placeholder}
          maxLength={SEARCH_MAX}
          autoComplete="off"
          ref={input}
          value={hydrated ? value : undefined}
          defaultValue={hydrated ? undefined : query}
          onChange={(event) => {
            const next = event.currentTarget.value;
            setValue(next);
            clearTimeout(timer.current);
            timer.current = setTimeout(() => go(next), TYPE_PAUSE_MS);
          }}
          className="gt-list-search-box"
        >
          <TextField.Slot>
            <MagnifyingGlassIcon />
          </TextField.Slot>
        </TextField.Root>
        {hydrated ? null : (
          <Button type="submit" variant="soft">
            Search
          </Button>
        )}
        {query ? (
          <Button asChild variant="ghost" size="1">
            <Link to={clearHref} replace preventScrollReset>
              Clear search
            </Link>
          </Button>
        ) : null}
      </Flex>
    </Form>
  );
}
