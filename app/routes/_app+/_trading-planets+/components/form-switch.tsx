import { Switch } from "@radix-ui/themes";
import { useHydrated } from "~/components/ui/use-hydrated";

/** A switch that posts `name=on` when checked: Radix Switch with JavaScript, a native checkbox without. */
export function FormSwitch({
  name,
  checked,
  onCheckedChange,
  label,
  size = "2",
}: {
  name?: string;
  checked: boolean;
  onCheckedChange?: (v: boolean) => void;
  label?: string;
  size?: "1" | "2";
}) {
  const hydrated = useHydrated();
  if (!hydrated) return <input type="checkbox" name={name} value="on" defaultChecked={checked} aria-label={label} />;
  return <Switch name={name} value="on" size={size} checked={checked} onCheckedChange={onCheckedChange} aria-label={label} />;
}
