import { Switch } from "@radix-ui/themes";
import { useHydrated } from "~/components/ui/use-hydrated";

/**
 * A switch that posts `name=on` when checked: Radix Switch with JavaScript, a native checkbox
 * without. `labelledBy` names it from text elsewhere in the row (`id` first, so `label` is
 * the prefix: "Active:" + the row's text) instead of repeating the text (issue 20).
 */
export function FormSwitch({
  name,
  checked,
  onCheckedChange,
  label,
  labelledBy,
  id,
  size = "2",
}: {
  name?: string;
  checked: boolean;
  onCheckedChange?: (v: boolean) => void;
  label?: string;
  labelledBy?: string;
  id?: string;
  size?: "1" | "2";
}) {
  const hydrated = useHydrated();
  if (!hydrated) return <input type="checkbox" name={name} value="on" defaultChecked={checked} id={id} aria-label={label} aria-labelledby={labelledBy} />;
  return (
    <Switch name={name} value="on" size={size} checked={checked} onCheckedChange={onCheckedChange} id={id} aria-label={label} aria-labelledby={labelledBy} />
  );
}
