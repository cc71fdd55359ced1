import { DownloadIcon } from "~/components/ui/icons";
import { Button } from "@radix-ui/themes";
import { RATE_MESSAGES } from "#api/rates";
import { toast } from "~/components/ui/toast";

export const EXPORT_PATH = "/exchange-rates/export";

/**
 * Export (spec 1 §7 "Export copies the rates as pretty JSON to the clipboard"). The button
 * sits in a GET form aimed at the download route, so without JavaScript (or where the
 * page may not write the clipboard) the same JSON arrives as a file instead. The page holds
 * one page of the list (issue 20), so with JavaScript the button fetches the whole export
 * from that route too and copies it.
 */
export function ExportButton({ disabled }: { disabled?: boolean }) {
  return (
    <form method="get" action={EXPORT_PATH} className="gt-inline-form">
      <Button
        type="submit"
        variant="soft"
        disabled={disabled}
        className="gt-touch"
        onClick={async (event) => {
          event.preventDefault();
          await copyRates();
        }}
      >
        <DownloadIcon /> Export
      </Button>
    </form>
  );
}

export async function copyRates(): Promise<boolean> {
  try {
    if (!navigator.clipboard) throw new Error("Clipboard unavailable");
    const res = await fetch(EXPORT_PATH, { headers: { Accept: "application/json" } });
    if (!res.ok || !(res.headers.get("Content-Type") ?? "").includes("application/json")) throw new Error(`Export answered ${res.status}`);
    // The download ends with a newline; the clipboard gets the JSON exactly.
    await navigator.clipboard.writeText((await res.text()).replace(/\n$/, ""));
    toast.success(RATE_MESSAGES.copied);
    return true;
  } catch (err) {
    console.warn("[export]", (err as Error).message);
    toast.error(RATE_MESSAGES.copyFailed);
    return false;
  }
}
