/**
 * Operator roles (issue 21; docs/decisions/0016). Client-safe: the shell, the Settings
 * forms and the server all read these.
 *
 * - admin:    everything an operator does, plus managing operators, backups and the queue board's writes;
 * - operator: reads and changes the team's data;
 * - viewer:   reads everything an operator reads and changes nothing.
 */
export const ROLES = ["admin", "operator", "viewer"] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_LABELS: Record<Role, string> = { admin: "Admin", operator: "Operator", viewer: "Viewer" };

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

/** May this role change anything (every write method of every page action and /api route)? */
export function roleCanWrite(role: Role): boolean {
  return role !== "viewer";
}

export const VIEWER_REFUSAL = "Viewers can look but not change anything: ask an admin for the operator role";
/** The header's hint beside a viewer's name (the screens hide what they cannot do). */
export const READ_ONLY_HINT = (role: Role) =>
  role === "viewer" ? "Your role is viewer: you can look at everything but not change anything" : "You can look but not change anything";
export const READ_ONLY_TOKEN_REFUSAL = "This API token is read-only";
export const ADMIN_ONLY = "Only admins can do this";
