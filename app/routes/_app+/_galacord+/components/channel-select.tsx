import type { Channel } from "#api/galacord";

/** Channel pick grouped by server (spec 2 §2): a native select with one optgroup per server. */
export function ChannelSelect({
  channels,
  value,
  onChange,
  id,
  ...aria
}: {
  channels: Channel[];
  value?: string;
  onChange?: (v: string) => void;
  id: string;
  "aria-invalid"?: true;
  "aria-describedby"?: string;
}) {
  const servers = [...new Set(channels.map((c) => c.guildName))];
  return (
    <select
      id={id}
      name="channelId"
      className="gt-native-select"
      required
      value={onChange ? value : undefined}
      defaultValue={onChange ? undefined : value}
      onChange={(e) => onChange?.(e.target.value)}
      {...aria}
    >
      <option value="">Choose a channel…</option>
      {servers.map((g) => (
        <optgroup key={g} label={g}>
          {channels
            .filter((c) => c.guildName === g)
            .map((c) => (
              <option key={c.id} value={c.id}>
                #{c.name}
              </option>
            ))}
        </optgroup>
      ))}
    </select>
  );
}
