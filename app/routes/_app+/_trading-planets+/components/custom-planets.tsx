import { Badge, Button, Card, Flex, Heading, IconButton, Select, TabNav, Text, TextField } from "@radix-ui/themes";
import { Form, Link, useActionData, useLocation, useNavigate, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { isPlanetName, PLANET_NAME_RULE } from "#api/planet-name";
import { TRADING_ERRORS, type CustomPlanet, type CustomPlanetType } from "#api/trading";
import { ConfirmPanel } from "~/components/ui/confirm-dialog";
import { DialogFrame } from "~/components/ui/dialog-frame";
import { FieldError } from "~/components/ui/field-error";
import { useKeptForm } from "~/components/ui/kept-form";
import { Cross2Icon, TrashIcon } from "~/components/ui/icons";
import { isSubmitFailure } from "~/components/ui/submit-failure";
import { useHydrated } from "~/components/ui/use-hydrated";
import { useCanWrite } from "~/components/ui/write-only";
import { HiddenFields, NoJsRedirect } from "~/components/ui/no-js";

/**
 * The Custom Planets dialog (spec 2 §2): add by name and type (blacklisted or english); tabs
 * Blacklisted and English with chips; inline rename; delete with confirmation ("Delete
 * Planet", "Are you sure you want to delete “{name}”?"). Opened by the URL (`planets=<tab>`),
 * so it works without JavaScript. With JavaScript it is the kit's dialog (issue 30 C5, B3: focus
 * kept inside, Escape closes, focus goes back to the "Custom Planets" link).
 */
export function CustomPlanetsPanel({
  planets,
  tab,
  confirm,
  closeTo,
}: {
  planets: CustomPlanet[];
  tab: CustomPlanetType;
  confirm: string | null;
  closeTo: string;
}) {
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  const hydrated = useHydrated();
  // A viewer reads both lists; adding, renaming and deleting are not offered (issue 21).
  const canWrite = useCanWrite();
  // A refused add comes back as typed, the reason under the field (issue 30 A6), with and without JavaScript.
  const kept = useKeptForm("planet-create");
  const actionData = useActionData();
  const [name, setName] = useState(() => kept.value("name", ""));
  const [type, setType] = useState<CustomPlanetType>(() => (kept.value("type", tab) === "english" ? "english" : tab));
  const [editedSince, setEditedSince] = useState(false);
  useEffect(() => setEditedSince(false), [actionData]);
  const refusedAdd = kept.refused && !editedSince ? [...(kept.errors("name") ?? []), ...(kept.errors("type") ?? []), ...kept.formErrors] : [];
  // The name posted and the planets known then: once the list holds it, the input is cleared (kept after a failure).
  const posted = useRef<{ name: string; known: Set<string> } | null>(null);
  useEffect(() => {
    const p = posted.current;
    if (!p) return;
    if (planets.some((x) => !p.known.has(x._id) && x.name === p.name)) {
      posted.current = null;
      setName((n) => (n.trim() === p.name ? "" : n));
    }
  }, [planets]);
  const [error, setError] = useState<string | null>(null);
  const tabUrl = (t: string) => {
    const p = new URLSearchParams(location.search);
    p.set("planets", t);
    p.delete("confirm");
    return `${location.pathname}?${p}`;
  };
  const confirming = canWrite && confirm?.startsWith("planet:") ? planets.find((p) => p._id === confirm.slice("planet:".length)) : undefined;
  const onAdd = (e: FormEvent) => {
    const refused = planetNameError(name);
    if (refused) {
      e.preventDefault();
      setError(refused);
    } else {
      setError(null);
      posted.current = { name: name.trim(), known: new Set(planets.map((p) => p._id)) };
    }
  };
  const navigate = useNavigate();
  const close = (
    <IconButton asChild variant="ghost" color="gray" className="gt-touch">
      <Link to={closeTo} aria-label="Close" preventScrollReset>
        <Cross2Icon />
      </Link>
    </IconButton>
  );
  const body = (
    <>
      {canWrite ? (
        <Form method="post" action={here} onSubmit={onAdd} noValidate preventScrollReset onReset={() => setName("")}>
          <HiddenFields fields={{ intent: "planet-create" }} />
          <NoJsRedirect />
          <Flex gap="2" wrap="wrap" align="start">
            <TextField.Root
              name="name"
              placeholder="Planet name"
              aria-label="Planet name"
              value={name}
              onChange={(e) => {
                setName(e.target.value);
                setError(null);
                setEditedSince(true);
              }}
              aria-invalid={!!error || refusedAdd.length > 0}
              aria-describedby={error || refusedAdd.length ? "gt-planet-add-error" : undefined}
            />
            {hydrated ? (
              <Select.Root name="type" value={type} onValueChange={(v) => setType(v as CustomPlanetType)}>
                <Select.Trigger aria-label="Planet type" />
                <Select.Content>
                  <Select.Item value="blacklisted">blacklisted</Select.Item>
                  <Select.Item value="english">english</Select.Item>
                </Select.Content>
              </Select.Root>
            ) : (
              <select name="type" defaultValue={type} aria-label="Planet type">
                <option value="blacklisted">blacklisted</option>
                <option value="english">english</option>
              </select>
            )}
            <Button type="submit">Add</Button>
          </Flex>
          <FieldError id="gt-planet-add-error" errors={error ? [error] : refusedAdd.length ? refusedAdd : null} />
        </Form>
      ) : null}
      {confirming ? (
        <ConfirmPanel
          title="Delete Planet"
          description={`Are you sure you want to delete “${confirming.name}”?`}
          confirmLabel="Delete"
          cancelTo={tabUrl(tab)}
          form={{ action: here, fields: { intent: "planet-delete", id: confirming._id } }}
        />
      ) : null}
      <TabNav.Root aria-label="Custom planet lists">
        <TabNav.Link asChild active={tab === "blacklisted"}>
          <Link to={tabUrl("blacklisted")} replace preventScrollReset>
            Blacklisted
          </Link>
        </TabNav.Link>
        <TabNav.Link asChild active={tab === "english"}>
          <Link to={tabUrl("english")} replace preventScrollReset>
            English
          </Link>
        </TabNav.Link>
      </TabNav.Root>
      <Flex gap="2" wrap="wrap" asChild>
        <ul className="gt-chips" aria-label={tab === "english" ? "English planets" : "Blacklisted planets"}>
          {planets
            .filter((p) => p.type === tab)
            .map((p) =>
              canWrite ? (
                <PlanetChip key={p._id} planet={p} here={here} deleteTo={`${tabUrl(tab)}&confirm=planet:${p._id}`} />
              ) : (
                <li key={p._id}>
                  <Badge size="2" variant="soft" color={p.type === "blacklisted" ? "red" : "blue"}>
                    {p.name}
                  </Badge>
                </li>
              ),
            )}
          {planets.every((p) => p.type !== tab) ? (
            // A list holds list items only (issue 30 B1, axe "list").
            <Text size="2" color="gray" asChild>
              <li>No {tab} planets yet.</li>
            </Text>
          ) : null}
        </ul>
      </Flex>
    </>
  );
  if (hydrated) {
    return (
      <DialogFrame open onClose={() => navigate(closeTo, { preventScrollReset: true })} closeHref={closeTo} title="Custom Planets" focusFirstField={false}>
        <Flex direction="column" gap="3">
          <Flex justify="end" className="gt-dialog-close">
            {close}
          </Flex>
          {body}
        </Flex>
      </DialogFrame>
    );
  }
  return (
    <Card mb="4" asChild>
      <section role="dialog" aria-labelledby="gt-planets-title">
        <Flex direction="column" gap="3">
          <Flex justify="between" align="center">
            <Heading as="h2" size="4" id="gt-planets-title">
              Custom Planets
            </Heading>
            {close}
          </Flex>
          {body}
        </Flex>
      </section>
    </Card>
  );
}

/** Spec 2 §5 "required", then the platform's planet-name rule (api/planet-name.ts); null when the name is fine. */
export function planetNameError(name: string): string | null {
  if (!name.trim()) return TRADING_ERRORS.planetName;
  return isPlanetName(name.trim()) ? null : PLANET_NAME_RULE;
}

/**
 * A chip; its name is an inline rename field (Enter or leaving it saves; Escape puts the
 * name back). A name the browser refuses shows why under the chip; once the server has
 * answered a rename, the chip shows the stored name again — a refused name (a duplicate) does
 * not linger as a second identical chip — unless the post never reached the app (the form
 * kit keeps what was typed for another try). A name the server refused is named under the
 * chip with the reason, with and without JavaScript (issue 30 A6, A9), until the next edit.
 */
function PlanetChip({ planet, here, deleteTo }: { planet: CustomPlanet; here: string; deleteTo: string }) {
  const [value, setValue] = useState(planet.name);
  const [error, setError] = useState<string | null>(null);
  const navigation = useNavigation();
  const actionData = useActionData();
  const kept = useKeptForm("planet-rename", { id: planet._id });
  const [editedSince, setEditedSince] = useState(false);
  useEffect(() => setEditedSince(false), [actionData]);
  const refusal = kept.refused && !editedSince ? [...(kept.errors("name") ?? []), ...kept.formErrors] : [];
  const refused = refusal.length ? `“${kept.value("name", "")}”: ${refusal.join(" ")}` : null;
  const renaming = navigation.state !== "idle" && navigation.formData?.get("intent") === "planet-rename" && navigation.formData.get("id") === planet._id;
  const wasRenaming = useRef(false);
  useEffect(() => {
    if (renaming) wasRenaming.current = true;
    else if (wasRenaming.current && navigation.state === "idle") {
      wasRenaming.current = false;
      if (!isSubmitFailure(actionData)) setValue(planet.name);
    }
  }, [renaming, navigation.state, actionData, planet.name]);
  // A rename stored elsewhere (another tab, the /api) shows here too.
  useEffect(() => setValue(planet.name), [planet.name]);
  return (
    <li>
      <Badge size="2" variant="soft" color={planet.type === "blacklisted" ? "red" : "blue"}>
        <Form
          method="post"
          action={here}
          preventScrollReset
          className="gt-inline-form"
          onSubmit={(e) => {
            const refused = planetNameError(value);
            setError(refused);
            if (refused || value.trim() === planet.name) e.preventDefault();
          }}
        >
          <HiddenFields fields={{ intent: "planet-rename", id: planet._id }} />
          <NoJsRedirect />
          <input
            name="name"
            className="gt-chip-input"
            aria-label={`Rename ${planet.name}`}
            // Escape here puts the name back; an Escape elsewhere closes the dialog (DialogFrame).
            data-own-escape=""
            aria-invalid={!!error || !!refused}
            aria-describedby={error || refused ? `${planet._id}-rename-error` : undefined}
            value={value}
            size={Math.max(4, value.length)}
            onChange={(e) => {
              setValue(e.target.value);
              setError(null);
              setEditedSince(true);
            }}
            onKeyDown={(e) => {
              if (e.key !== "Escape") return;
              setValue(planet.name);
              setError(null);
            }}
            onBlur={(e) => {
              if (value !== planet.name) e.currentTarget.form?.requestSubmit();
            }}
          />
          <noscript>
            <button type="submit">Rename</button>
          </noscript>
        </Form>
        <Link to={deleteTo} aria-label={`Delete ${planet.name}`} preventScrollReset>
          <TrashIcon />
        </Link>
      </Badge>
      <FieldError id={`${planet._id}-rename-error`} errors={error ? [error] : refused ? [refused] : null} />
    </li>
  );
}
