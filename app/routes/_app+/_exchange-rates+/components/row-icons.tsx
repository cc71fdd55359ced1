/**
 * The icons every rate row shows (expand/collapse chevrons, Delete's trash can), drawn
 * once per page as SVG symbols and referenced by each row with `<use>`: a list of 1,000
 * rows would otherwise carry 1,000 copies of each path in its HTML. The paths are those
 * of @radix-ui/react-icons (ChevronRightIcon, ChevronDownIcon, TrashIcon, 15×15), so the
 * rows look exactly as with the components.
 */
const PATHS = {
  "chevron-right":
    "M6.1584 3.13508C6.35985 2.94621 6.67627 2.95642 6.86514 3.15788L10.6151 7.15788C10.7954 7.3502 10.7954 7.64949 10.6151 7.84182L6.86514 11.8418C6.67627 12.0433 6.35985 12.0535 6.1584 11.8646C5.95694 11.6757 5.94673 11.3593 6.1356 11.1579L9.565 7.49985L6.1356 3.84182C5.94673 3.64036 5.95694 3.32394 6.1584 3.13508Z",
  "chevron-down":
    "M3.13523 6.15803C3.3241 5.95657 3.64052 5.94637 3.84197 6.13523L7.5 9.56464L11.158 6.13523C11.3595 5.94637 11.6759 5.95657 11.8648 6.15803C12.0536 6.35949 12.0434 6.67591 11.842 6.86477L7.84197 10.6148C7.64964 10.7951 7.35036 10.7951 7.15803 10.6148L3.15803 6.86477C2.95657 6.67591 2.94637 6.35949 3.13523 6.15803Z",
  trash:
    "M5.5 1C5.22386 1 5 1.22386 5 1.5C5 1.77614 5.22386 2 5.5 2H9.5C9.77614 2 10 1.77614 10 1.5C10 1.22386 9.77614 1 9.5 1H5.5ZM3 3.5C3 3.22386 3.22386 3 3.5 3H5H10H11.5C11.7761 3 12 3.22386 12 3.5C12 3.77614 11.7761 4 11.5 4H11V12C11 12.5523 10.5523 13 10 13H5C4.44772 13 4 12.5523 4 12V4L3.5 4C3.22386 4 3 3.77614 3 3.5ZM5 4H10V12H5V4Z",
} as const;

export type RowIconName = keyof typeof PATHS;

const symbolId = (name: RowIconName) => `gt-rate-icon-${name}`;

/** The symbols, rendered once by the panel above its rows (takes no room, hidden from AT). */
export function RowIconSprite() {
  return (
    <svg width="0" height="0" aria-hidden focusable="false" style={{ position: "absolute" }}>
      {(Object.keys(PATHS) as RowIconName[]).map((name) => (
        <symbol key={name} id={symbolId(name)} viewBox="0 0 15 15">
          <path d={PATHS[name]} fill="currentColor" fillRule="evenodd" clipRule="evenodd" />
        </symbol>
      ))}
    </svg>
  );
}

/** One icon, 15×15 like the Radix icon components, in the current text colour. */
export function RowIcon({ name }: { name: RowIconName }) {
  return (
    <svg width="15" height="15" viewBox="0 0 15 15" aria-hidden>
      <use href={`#${symbolId(name)}`} />
    </svg>
  );
}
