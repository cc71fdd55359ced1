/**
 * How a Galaxy account reads on every screen that lists accounts (All Characters, Bowling Bots,
 * Collections' profile and saved accounts): one rule each, so the same account looks the same
 * everywhere (issue 19 B.3 "shared gift view helpers").
 */

/** Two uppercase initials: the first letters of the first two words, else the first two letters ("?" for none). */
export function initialsOf(nick: string): string {
  const words = nick
    .trim()
    .split(/[\s_.-]+/)
    .filter(Boolean);
  const letters = words.length >= 2 ? `${[...words[0]!][0]}${[...words[1]!][0]}` : [...(words[0] ?? "?")].slice(0, 2).join("");
  return letters.toUpperCase() || "?";
}

/** Spec 1 §2 "Status badge: a loading placeholder, then the room name, or Online or Offline" (null: not known yet). */
export function statusText(isOnline: boolean | null, room: string | null): string | null {
  if (isOnline === null) return null;
  if (room) return room;
  return isOnline ? "Online" : "Offline";
}
