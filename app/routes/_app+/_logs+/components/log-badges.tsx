import { Badge } from "@radix-ui/themes";
import type { LogSource, LogType } from "~/db/schema/logs";

/** Type badge colours: error red, disconnect orange, debug gray, info blue. */
const TYPE_COLOR = { error: "red", disconnect: "orange", debug: "gray", info: "blue" } as const satisfies Record<LogType, string>;
const SOURCE_COLOR = { discord: "iris", galaxyAuth: "cyan", bot: "jade", system: "gray" } as const satisfies Record<LogSource, string>;

export function LogTypeBadge({ type }: { type: LogType }) {
  return (
    <Badge color={TYPE_COLOR[type]} variant="soft" data-log-type={type} title="Type">
      {type}
    </Badge>
  );
}

export function LogSourceBadge({ source }: { source: LogSource }) {
  return (
    <Badge color={SOURCE_COLOR[source]} variant="outline" data-log-source={source} title="Source">
      {source}
    </Badge>
  );
}
