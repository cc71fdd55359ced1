import type { SVGProps } from "react";
import spriteUrl from "./icons.svg?url";

/**
 * The app's icons: the @radix-ui/react-icons we use (same 15×15 paths, same component
 * names and props), drawn from one SVG sprite file (`icons.svg`, a hashed, immutable asset)
 * with `<use href>`.
 *
 * Performance trick (CONVENTIONS rule 15), figure in bench/README.md "First-load weight":
 * as components the 20 icons' path data shipped ~8 kB gzip of JavaScript to every section
 * (the shell alone shows 7 icons), and inline they would repeat their paths in each page's
 * HTML. As a sprite they are one cached image request, outside the JavaScript budget.
 * To add an icon: copy its `<path>`s from the Radix icon set into a `<symbol>` of icons.svg
 * (fill="currentColor", viewBox 0 0 15 15) and export a component below.
 */
export type IconProps = Omit<SVGProps<SVGSVGElement>, "children" | "ref" | "name">;

export type IconName =
  | "clock"
  | "copy"
  | "cross-2"
  | "download"
  | "exclamation-triangle"
  | "exit"
  | "gear"
  | "globe"
  | "link-2"
  | "lock-closed"
  | "magnifying-glass"
  | "mixer-horizontal"
  | "mobile"
  | "moon"
  | "plus"
  | "reader"
  | "reload"
  | "reset"
  | "sun"
  | "trash"
  | "upload";

/** One icon in the current text colour; decorative unless given an accessible name. */
export function Icon({ name, ...props }: IconProps & { name: IconName }) {
  const labelled = props["aria-label"] !== undefined || props["aria-labelledby"] !== undefined;
  return (
    <svg width="15" height="15" viewBox="0 0 15 15" fill="none" aria-hidden={labelled ? undefined : true} focusable="false" {...props}>
      <use href={`${spriteUrl}#${name}`} />
    </svg>
  );
}

const icon = (name: IconName) => {
  const Named = (props: IconProps) => <Icon {...props} name={name} />;
  return Named;
};

export const ClockIcon = icon("clock");
export const CopyIcon = icon("copy");
export const Cross2Icon = icon("cross-2");
export const DownloadIcon = icon("download");
export const ExclamationTriangleIcon = icon("exclamation-triangle");
export const ExitIcon = icon("exit");
export const GearIcon = icon("gear");
export const GlobeIcon = icon("globe");
export const Link2Icon = icon("link-2");
export const LockClosedIcon = icon("lock-closed");
export const MagnifyingGlassIcon = icon("magnifying-glass");
export const MixerHorizontalIcon = icon("mixer-horizontal");
export const MobileIcon = icon("mobile");
export const MoonIcon = icon("moon");
export const PlusIcon = icon("plus");
export const ReaderIcon = icon("reader");
export const ReloadIcon = icon("reload");
export const ResetIcon = icon("reset");
export const SunIcon = icon("sun");
export const TrashIcon = icon("trash");
export const UploadIcon = icon("upload");
