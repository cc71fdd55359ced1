/**
 * One owner for a long-lived object per process (CONVENTIONS rule 13).
 *
 * The server entry loads the app from the Remix build, so every module exists once and a
 * module-level singleton is already unique. The only place a module graph is evaluated
 * twice is Vite's dev server reloading a changed module: `remember` keeps such objects (a
 * database handle, Redis connections, a Galaxy connection registry, a discord.js client)
 * across those reloads under one registry, instead of a hand-cast global per object.
 *
 *   const db = remember("db", () => openDb());
 *
 * `forget(name)` drops an entry (tests that rebuild a service after changing the env).
 */
const REGISTRY = Symbol.for("galaxy-toolbox.remember");

type Registry = Map<string, unknown>;

function registry(): Registry {
  const holder = globalThis as { [REGISTRY]?: Registry };
  return (holder[REGISTRY] ??= new Map());
}

export function remember<T>(name: string, make: () => T): T {
  const store = registry();
  if (!store.has(name)) store.set(name, make());
  return store.get(name) as T;
}

/** The remembered value, if any, without creating it. */
export function recall<T>(name: string): T | undefined {
  return registry().get(name) as T | undefined;
}

export function forget(name: string): void {
  registry().delete(name);
}
