import { Box, Button, Card, Flex, Heading, Text, TextArea, TextField } from "@radix-ui/themes";
import { Form, Link, useActionData, useFetcher, useLocation, useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect, useRef, useState, type FormEvent, type PointerEvent } from "react";
import { TRADING_ERRORS, TRADING_LIMITS, TRADING_MESSAGES, type Ad, type AdCategory } from "#api/trading";
import { FieldError } from "~/components/ui/field-error";
import { useKeptForm } from "~/components/ui/kept-form";
import { HiddenFields, NoJsRedirect } from "~/components/ui/no-js";
import { isSubmitFailure } from "~/components/ui/submit-failure";
import { TrashIcon } from "~/components/ui/icons";
import { toast } from "~/components/ui/toast";
import { useHydrated } from "~/components/ui/use-hydrated";
import { useCanWrite } from "~/components/ui/write-only";
import { FormSwitch } from "./form-switch";
import { ListSearch } from "~/components/ui/list-search";
import { PAGE_PARAMS, Pager, pageHref, SEARCH_PARAMS, type ListPage } from "./pager";

/** Quick-insert symbols of the large editor (spec 2 §2: emoji and short text tokens). Ours. */
export const QUICK_SYMBOLS = ["⭐", "🚀", "💎", "🔥", "✨", "💰", "🎁", "➜", "★", "♥", "✔", "[WTS]", "[WTB]", "PM me"] as const;

/** Inserts `token` into `value` at the caret (or over the selection); returns the text and the new caret. */
export function insertAt(value: string, token: string, start: number, end: number): { text: string; caret: number } {
  const a = Math.max(0, Math.min(start, value.length));
  const b = Math.max(a, Math.min(end, value.length));
  return { text: value.slice(0, a) + token + value.slice(b), caret: a + token.length };
}

/**
 * The ads and messages manager (spec 2 §2, §4, §8): new message with category Ads or Msg and
 * an expand toggle to a large editor with quick-insert symbols; sections Ads and Messages;
 * per row copy on click, optimistic active switch, edit, delete; a 500 ms long press on
 * delete starts multi-select ("Delete Selected", confirmation "Delete Selected Ads").
 * Without JavaScript: `select=1` shows checkboxes and Delete Selected, `ids` the confirmation.
 *
 * `ads` are the shown pages of both sections (issue 20 "Bounded pages": `adsPage`, `msgPage`);
 * multi-select and Delete Selected work on what is shown.
 */
export function AdsManager({
  ads,
  params,
  linkWith,
  pages,
  query = "",
}: {
  ads: Ad[];
  params: URLSearchParams;
  linkWith: (name: string, value: string | null) => string;
  pages?: { ads: ListPage; msg: ListPage };
  /** The ads search (`adQ`, issue 32 item 2); both sections show only the ads holding it. */
  query?: string;
}) {
  const location = useLocation();
  const hydrated = useHydrated();
  // A viewer reads (and copies) the ads; new, edit, active, delete and multi-select are not offered (issue 21).
  const canWrite = useCanWrite();
  const [selecting, setSelecting] = useState(params.get("select") === "1");
  const [chosen, setSelected] = useState<string[]>(params.getAll("ids"));
  const [confirming, setConfirming] = useState(params.getAll("ids").length > 0 && params.get("select") === "1");
  useEffect(() => {
    setSelecting(params.get("select") === "1");
    setSelected(params.getAll("ids"));
    setConfirming(params.getAll("ids").length > 0 && params.get("select") === "1");
    // eslint-disable-next-line react-hooks/exhaustive-deps -- follow the URL
  }, [location.search]);
  // "Delete Selected" ends multi-select once its post is answered. With JavaScript the
  // selection is not in the URL and the answer redirects to the very same URL, so following
  // the URL alone left the toolbar up, counting the deleted ads (issue 19). A post that
  // never reached the app (the form kit's failure) keeps the selection for another try.
  const navigation = useNavigation();
  const actionData = useActionData();
  const deleting = navigation.state !== "idle" && navigation.formData?.get("intent") === "ads-delete-selected";
  const wasDeleting = useRef(false);
  useEffect(() => {
    if (deleting) wasDeleting.current = true;
    else if (wasDeleting.current && navigation.state === "idle") {
      wasDeleting.current = false;
      if (isSubmitFailure(actionData)) return;
      setSelecting(false);
      setSelected([]);
      setConfirming(false);
    }
  }, [deleting, navigation.state, actionData]);
  // Only ads that are still listed count (one deleted elsewhere, or by a live update, drops out).
  const selected = chosen.filter((id) => ads.some((a) => a._id === id));
  const editing = canWrite ? params.get("ad") : null;
  const here = `${location.pathname}${location.search}`;
  const home = linkWith("select", null);
  const startSelect = (id: string) => {
    setSelecting(true);
    setSelected((s) => (s.includes(id) ? s : [...s, id]));
  };
  const toggle = (id: string, on: boolean) => setSelected((s) => (on ? [...new Set([...s, id])] : s.filter((x) => x !== id)));
  const sections: [string, AdCategory][] = [
    ["Ads", "ads"],
    ["Messages", "msg"],
  ];
  return (
    <Box asChild>
      <section aria-labelledby="gt-ads-title">
        <Heading as="h2" size="4" mb="2" id="gt-ads-title">
          Ads and Messages
        </Heading>
        {canWrite ? <NewAdForm here={here} ads={ads} pages={pages} /> : null}
        <Box mt="2" />
        <ListSearch
          query={query}
          param={SEARCH_PARAMS.ads}
          label="Search ads and messages"
          placeholder="ad or message text..."
          keep={[SEARCH_PARAMS.sequences, PAGE_PARAMS.sequences, PAGE_PARAMS.traders, "planets"]}
        />
        <Form
          method="get"
          preventScrollReset
          id="gt-ads-select"
          onSubmit={(e) => {
            if (hydrated) {
              e.preventDefault();
              if (selected.length) setConfirming(true);
            }
          }}
        >
          <input type="hidden" name="select" value="1" />
          {/* The lists' pages stay (a GET form replaces the query): the selected ads are the shown ones. */}
          {[...Object.values(PAGE_PARAMS), ...Object.values(SEARCH_PARAMS)].map((name) =>
            params.get(name) ? <input key={name} type="hidden" name={name} value={params.get(name) ?? ""} /> : null,
          )}
        </Form>
        <Flex gap="2" my="2" wrap="wrap" align="center">
          {!canWrite ? null : selecting ? (
            <>
              <Button type="submit" form="gt-ads-select" color="red" size="1" disabled={hydrated && !selected.length}>
                <TrashIcon /> Delete Selected
              </Button>
              <Button asChild size="1" variant="soft" color="gray">
                <Link
                  to={home}
                  preventScrollReset
                  onClick={() => {
                    setSelecting(false);
                    setSelected([]);
                    setConfirming(false);
                  }}
                >
                  Cancel
                </Link>
              </Button>
              <Text size="1" color="gray">
                {selected.length} selected
              </Text>
            </>
          ) : (
            <noscript>
              <Link to={linkWith("select", "1")}>Select</Link>
            </noscript>
          )}
        </Flex>
        {confirming && selected.length && canWrite ? (
          <Card role="alertdialog" aria-labelledby="gt-ads-confirm-title" mb="3">
            <Flex direction="column" gap="2">
              <Heading as="h3" size="3" id="gt-ads-confirm-title">
                Delete Selected Ads
              </Heading>
              <Text as="p" size="2">
                {`Are you sure you want to delete ${selected.length} selected ${selected.length === 1 ? "ad" : "ads"}? This action cannot be undone.`}
              </Text>
              <Flex gap="3" justify="end">
                <Button variant="soft" color="gray" asChild>
                  <Link to={`${home}${home.includes("?") ? "&" : "?"}select=1`} onClick={() => setConfirming(false)} preventScrollReset>
                    Cancel
                  </Link>
                </Button>
                <Form method="post" action={here} preventScrollReset>
                  <HiddenFields fields={{ intent: "ads-delete-selected" }} />
                  <NoJsRedirect to={home} />
                  {selected.map((id) => (
                    <input key={id} type="hidden" name="ids" value={id} />
                  ))}
                  <Button type="submit" color="red">
                    Delete
                  </Button>
                </Form>
              </Flex>
            </Flex>
          </Card>
        ) : null}
        {sections.map(([title, category]) => (
          <Box key={category} mb="3">
            <Heading as="h3" size="3" mb="1">
              {title}
            </Heading>
            <ul className="gt-ads" aria-label={title}>
              {ads
                .filter((a) => a.category === category)
                .map((ad) =>
                  editing === ad._id ? (
                    <EditAdRow key={ad._id} ad={ad} cancelTo={linkWith("ad", null)} />
                  ) : (
                    <AdRow
                      key={ad._id}
                      ad={ad}
                      n={ads.indexOf(ad)}
                      here={here}
                      editTo={linkWith("ad", ad._id)}
                      canWrite={canWrite}
                      hydrated={hydrated}
                      selecting={canWrite && selecting}
                      selected={selected.includes(ad._id)}
                      onSelect={toggle}
                      onLongPress={startSelect}
                    />
                  ),
                )}
              {ads.every((a) => a.category !== category) ? (
                <li>
                  <Text size="2" color="gray">
                    {query ? `No ${title.toLowerCase()} match “${query}”.` : `No ${title.toLowerCase()} yet.`}
                  </Text>
                </li>
              ) : query && pages ? (
                <li>
                  <Text size="1" color="gray" role="status">
                    {`${pages[category].total.toLocaleString("en-US")} ${NOUNS[category][pages[category].total === 1 ? 0 : 1]} ${pages[category].total === 1 ? "matches" : "match"} “${query}”`}
                  </Text>
                </li>
              ) : null}
            </ul>
            <Pager label={`${title} pages`} param={PAGE_PARAMS[category]} of={pages?.[category]} />
          </Box>
        ))}
      </section>
    </Box>
  );
}

/** "1 ad matches", "2 messages match" (the search's count line). */
const NOUNS: Record<AdCategory, [string, string]> = { ads: ["ad", "ads"], msg: ["message", "messages"] };

const NEW_AD_ERROR_ID = "gt-ad-new-error";
const NEW_AD_FORM_ID = "gt-ad-new";

/**
 * A no-JS form's action with its own id as the fragment: the page its post renders (a refusal
 * kept in the form, issue 30 A6) or redirects to (the fragment is kept) opens scrolled to the
 * form, not at the top, where on a phone the reason under the field was below the fold. With
 * JavaScript the page does not move (preventScrollReset); a fragment would scroll it.
 */
function anchoredAction(action: string, hydrated: boolean, id: string) {
  return hydrated ? action : `${action}#${id}`;
}

function NewAdForm({ here, ads, pages }: { here: string; ads: Ad[]; pages?: { ads: ListPage; msg: ListPage } }) {
  const hydrated = useHydrated();
  const location = useLocation();
  // A refused ad (blank, too long) comes back as typed, with its category, the reason under it (issue 30 A6).
  const kept = useKeptForm("ad-create");
  const [category, setCategory] = useState<AdCategory>(() => (kept.value("category", "ads") === "msg" ? "msg" : "ads"));
  // A new ad goes last in its section: the answer goes to the page that shows it (the input is emptied once it is listed).
  const section = pages?.[category];
  const target = section ? pageHref(location.pathname, location.search, PAGE_PARAMS[category], Math.ceil((section.total + 1) / section.per)) : here;
  const [text, setText] = useState(() => kept.value("adsMessage", ""));
  // The text posted and the ads known then: once the list holds a new ad with that text, the input is cleared.
  const posted = useRef<{ text: string; known: Set<string> } | null>(null);
  useEffect(() => {
    const p = posted.current;
    if (!p) return;
    if (ads.some((a) => !p.known.has(a._id) && a.adsMessage === p.text)) {
      posted.current = null;
      setText((t) => (t.replace(/\r\n/g, "\n") === p.text ? "" : t));
    }
  }, [ads]);
  const [expanded, setExpanded] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const area = useRef<HTMLTextAreaElement | null>(null);
  const caret = useRef<number | null>(null);
  useEffect(() => {
    if (caret.current !== null && area.current) {
      area.current.focus();
      area.current.setSelectionRange(caret.current, caret.current);
      caret.current = null;
    }
  }, [text]);
  const insert = (token: string) => {
    const el = area.current;
    const { text: next, caret: at } = insertAt(text, token, el?.selectionStart ?? text.length, el?.selectionEnd ?? text.length);
    caret.current = at;
    setText(next);
  };
  const onSubmit = (e: FormEvent) => {
    if (!text.trim()) {
      e.preventDefault();
      setError(TRADING_ERRORS.adMessage);
    } else {
      setError(null);
      posted.current = { text: text.replace(/\r\n/g, "\n"), known: new Set(ads.map((a) => a._id)) };
    }
  };
  const large = expanded || !hydrated;
  // The browser's refusal (blank) while there is one, else the server's for the text posted.
  const errors = error ? [error] : kept.errors("adsMessage");
  const invalid = errors ? { "aria-invalid": true as const, "aria-describedby": NEW_AD_ERROR_ID } : {};
  return (
    <Form
      method="post"
      action={anchoredAction(here, hydrated, NEW_AD_FORM_ID)}
      id={NEW_AD_FORM_ID}
      className="gt-scroll-anchor"
      onSubmit={onSubmit}
      noValidate
      preventScrollReset
      reloadDocument={false}
      onReset={() => setText("")}
    >
      <HiddenFields fields={{ intent: "ad-create", redirectTo: target }} />
      <Flex gap="2" wrap="wrap" align="start">
        <Box flexGrow="1" minWidth="200px">
          {large ? (
            <TextArea
              ref={area}
              name="adsMessage"
              rows={6}
              placeholder="New message"
              aria-label="New message"
              value={text}
              onChange={(e) => setText(e.target.value)}
              {...invalid}
            />
          ) : (
            <TextField.Root
              name="adsMessage"
              placeholder="New message"
              aria-label="New message"
              value={text}
              onChange={(e) => setText(e.target.value)}
              {...invalid}
            />
          )}
        </Box>
        <select
          name="category"
          aria-label="Category"
          value={category}
          onChange={(e) => setCategory(e.target.value === "msg" ? "msg" : "ads")}
          className="gt-native-select"
        >
          <option value="ads">Ads</option>
          <option value="msg">Msg</option>
        </select>
        {hydrated ? (
          <Button type="button" variant="soft" color="gray" aria-pressed={expanded} onClick={() => setExpanded((x) => !x)}>
            {expanded ? "Collapse" : "Expand"}
          </Button>
        ) : null}
        <Button type="submit">Add</Button>
      </Flex>
      {hydrated && expanded ? (
        <Flex gap="1" wrap="wrap" mt="2" role="toolbar" aria-label="Quick insert">
          {QUICK_SYMBOLS.map((s) => (
            <Button key={s} type="button" size="1" variant="outline" onMouseDown={(e) => e.preventDefault()} onClick={() => insert(s)}>
              {s}
            </Button>
          ))}
        </Flex>
      ) : null}
      <FieldError id={NEW_AD_ERROR_ID} errors={errors} />
    </Form>
  );
}

/* Light rows (issue 20): plain elements with Radix Themes' classes and accent attributes
   (what <Card>, <Badge>, <Button> render) instead of the components; the text is in the
   markup once, and the controls take their names from it (`aria-labelledby`). */
const CARD = "rt-reset rt-BaseCard rt-Card rt-r-size-1 rt-variant-surface gt-ad";
const GHOST = "rt-reset rt-BaseButton rt-r-size-1 rt-variant-ghost";

/**
 * One ad: the text (a click copies it), the active switch, Edit, and delete. Active and
 * delete are one form: without JavaScript its submit buttons say which (`intent`); with it
 * the switch posts through its own fetcher (optimistic) and a short press on delete posts the
 * form, a 500 ms press starts multi-select.
 */
function AdRow({
  ad,
  n,
  here,
  editTo,
  canWrite,
  hydrated,
  selecting,
  selected,
  onSelect,
  onLongPress,
}: {
  ad: Ad;
  /** The row's place among the shown ads: its element ids (`ad3-text`), short and unique in the page. */
  n: number;
  here: string;
  editTo: string;
  canWrite: boolean;
  hydrated: boolean;
  selecting: boolean;
  selected: boolean;
  onSelect: (id: string, on: boolean) => void;
  onLongPress: (id: string) => void;
}) {
  const active = useFetcher<{ ok?: boolean }>();
  const revalidator = useRevalidator();
  const [optimistic, setOptimistic] = useState<boolean | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const longPressed = useRef(false);
  useEffect(() => {
    if (active.state !== "idle") return;
    // Reloaded on failure (spec 2 §4): the toast comes with the redirect, the list from the server.
    if (active.data !== undefined || optimistic !== null) {
      setOptimistic(null);
      // A post that never reached the app changed nothing (the kit toasted it): no reload.
      if (!isSubmitFailure(active.data)) revalidator.revalidate();
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- when a toggle finishes
  }, [active.state]);
  const isActive = optimistic ?? ad.isActive;
  const id = `ad${n}`;
  const text = `${id}-text`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(ad.adsMessage);
      toast.success(TRADING_MESSAGES.copied, { duration: TRADING_LIMITS.clipboardToastMs });
    } catch {
      toast.error("Could not copy the text");
    }
  };
  const pressedAt = useRef(0);
  const longPress = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    longPressed.current = true;
    onLongPress(ad._id);
  };
  const pressStart = (e: PointerEvent<HTMLButtonElement>) => {
    longPressed.current = false;
    pressedAt.current = e.timeStamp;
    timer.current = setTimeout(longPress, TRADING_LIMITS.deleteLongPressMs);
  };
  // A press is long by the time between its two ends, as the input stamped them: on a busy page
  // the release can be handled before the timer that was due first (input goes ahead of timers),
  // and a press held 700 ms was taken for a click.
  const pressEnd = (e: PointerEvent<HTMLButtonElement>) => {
    if (!timer.current) return;
    if (e.type === "pointerup" && e.timeStamp - pressedAt.current >= TRADING_LIMITS.deleteLongPressMs) return longPress();
    clearTimeout(timer.current);
    timer.current = null;
  };
  const textButton = (
    <button type="button" id={text} className="gt-ad-text" onClick={copy} title="Click to copy" disabled={!hydrated}>
      {ad.adsMessage}
    </button>
  );
  if (!canWrite) {
    return (
      <li className={CARD} data-testid="ad">
        {textButton}
        <span className="rt-reset rt-Badge rt-r-size-1 rt-variant-soft" data-accent-color={isActive ? "green" : "gray"}>
          {isActive ? "Active" : "Inactive"}
        </span>
      </li>
    );
  }
  return (
    // The no-JS edit's success lands here (EditAdRow's redirect names it as the fragment).
    <li className={`${CARD} gt-scroll-anchor`} data-testid="ad" id={`gt-ad-${ad._id}`}>
      {selecting ? (
        <input
          type="checkbox"
          name="ids"
          value={ad._id}
          form="gt-ads-select"
          checked={hydrated ? selected : undefined}
          defaultChecked={hydrated ? undefined : selected}
          onChange={(e) => onSelect(ad._id, e.target.checked)}
          id={`${id}-select`}
          aria-label="Select"
          aria-labelledby={`${id}-select ${text}`}
        />
      ) : null}
      {textButton}
      <Form method="post" action={here} preventScrollReset className="gt-inline-form" discover="none">
        <HiddenFields fields={{ id: ad._id, isActive: String(!isActive) }} />
        <NoJsRedirect />
        <FormSwitch
          checked={isActive}
          id={`${id}-active`}
          label="Active:"
          labelledBy={`${id}-active ${text}`}
          size="1"
          onCheckedChange={(v) => {
            setOptimistic(v);
            active.submit({ intent: "ad-active", id: ad._id, isActive: String(v) }, { method: "post", action: here });
          }}
        />
        {hydrated ? null : (
          <button type="submit" name="intent" value="ad-active" className={`${GHOST} rt-Button`}>
            {isActive ? "Deactivate" : "Activate"}
          </button>
        )}
        <Link to={editTo} id={`${id}-edit`} aria-labelledby={`${id}-edit ${text}`} className={`${GHOST} rt-Button`} preventScrollReset discover="none">
          Edit
        </Link>
        <button
          type="submit"
          name="intent"
          value="ad-delete"
          id={`${id}-delete`}
          aria-label="Delete"
          aria-labelledby={`${id}-delete ${text}`}
          className={`${GHOST} rt-IconButton`}
          data-accent-color="red"
          onPointerDown={pressStart}
          onPointerUp={pressEnd}
          onPointerLeave={pressEnd}
          onContextMenu={(e) => e.preventDefault()}
          onClick={(e) => {
            // The click that ends a long press only starts multi-select; in multi-select a click toggles the row.
            const wasLong = longPressed.current;
            longPressed.current = false;
            if (wasLong || selecting) e.preventDefault();
            if (selecting && !wasLong) onSelect(ad._id, !selected);
          }}
        >
          <TrashIcon />
        </button>
      </Form>
    </li>
  );
}

function EditAdRow({ ad, cancelTo }: { ad: Ad; cancelTo: string }) {
  const location = useLocation();
  const hydrated = useHydrated();
  // A refused edit comes back as typed, with its category, the reason under the text (issue 30 A6).
  const kept = useKeptForm("ad-update", { id: ad._id });
  const [text, setText] = useState(() => kept.value("adsMessage", ad.adsMessage));
  const [error, setError] = useState<string | null>(null);
  const errors = error ? [error] : kept.errors("adsMessage");
  const errorId = `gt-ad-edit-${ad._id}-error`;
  const formId = `gt-ad-edit-${ad._id}`;
  return (
    <li className="gt-ad">
      <Card size="1">
        <Form
          method="post"
          // Posted to this URL (`ad=<id>` kept), so a failed post leaves the row in edit with its text (the form kit).
          action={anchoredAction(`${location.pathname}${location.search}`, hydrated, formId)}
          id={formId}
          className="gt-scroll-anchor"
          preventScrollReset
          noValidate
          onSubmit={(e) => {
            if (!text.trim()) {
              e.preventDefault();
              setError(TRADING_ERRORS.adMessage);
            }
          }}
        >
          <HiddenFields fields={{ intent: "ad-update", id: ad._id }} />
          {/* Saved, the page opens at the ad (AdRow's id), not at its top. */}
          <NoJsRedirect to={`${cancelTo}#gt-ad-${ad._id}`} />
          <Flex direction="column" gap="2">
            <TextArea
              name="adsMessage"
              aria-label="Edit message"
              value={text}
              onChange={(e) => setText(e.target.value)}
              rows={3}
              {...(errors ? { "aria-invalid": true, "aria-describedby": errorId } : {})}
            />
            <FieldError id={errorId} errors={errors} />
            <Flex gap="2" justify="end" wrap="wrap">
              <select name="category" aria-label="Category" defaultValue={kept.value("category", ad.category)} className="gt-native-select">
                <option value="ads">Ads</option>
                <option value="msg">Msg</option>
              </select>
              <Button asChild variant="soft" color="gray">
                <Link to={cancelTo} preventScrollReset>
                  Cancel
                </Link>
              </Button>
              <Button type="submit">Save</Button>
            </Flex>
          </Flex>
        </Form>
      </Card>
    </li>
  );
}
