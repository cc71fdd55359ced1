import { DownloadIcon } from "~/components/ui/icons";
import { Button } from "@radix-ui/themes";
import { exportRatesJson, RATE_MESSAGES, type RatesMap } from "#api/rates";
import { toast } from "~/components/ui/toast";

export const EXPORT_PATH = "/exchange-rates/export";

/**
 * Export (spec 1 §7 "Export copies the rates as pretty JSON to the clipboard"). The button
 * sits in a GET form aimed at the download route, so without JavaScript (or where the
 * page may not write the clipboard) the same JSON arrives as a file instead.
 */
export function ExportButton({ rates, disabled }: { rates: RatesMap | null; disabled?: boolean }) {
  return (
    <form method="get" action={EXPORT_PATH} className="gt-inline-form">
      <Button
        type="submit"
        variant="soft"
        disabled={disabled}
        className="gt-touch"
        onClick={async (event) => {
          event.preventDefault();
          await copyRates(rates);
        }}
      >
        <DownloadIcon /> Export
      </Button>
    </form>
  );
}

export async function copyRates(rates: RatesMap | null): Promise<boolean> {
  try {
    if (!rates || !navigator.clipboard) throw new Error("Clipboard unavailable");
    await navigator.clipboard.writeText(exportRatesJson(rates));
    toast.success(RATE_MESSAGES.copied);
    return true;
  } catch (err) {
    console.warn("[export]", (err as Error).message);
    toast.error(RATE_MESSAGES.copyFailed);
    return false;
  }
}
