/**
 * The route list and every form intent of every action, read from the app itself, for the
 * standing write-rule suite (tests/security/read-only.test.ts, issue 28): a route or an intent
 * added tomorrow is walked without editing the suite.
 *
 * - Routes: the Remix route table (app/routes.manifest.ts, the function the build uses).
 * - Intents: read from each route module's source with the TypeScript parser — the keys of an
 *   `intents: { … }` table (pageAction, runPageAction), the strings of an `INTENTS = [ … ]`
 *   array, the members of a string-literal `type Intent = "a" | "b"`, the `case "x":` of a
 *   `switch (intent)` and the strings compared with `intent ===`. A module whose action reads
 *   an intent but yields none of these is reported in `unreadable`, and the suite fails.
 * - The queue board's writes: bull-board's own route table (`appRoutes.api`).
 */
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { fullPath, routeTable, type RouteEntry } from "#tests/kit/remix";

export type WalkedRoute = { route: RouteEntry; path: string; file: string; hasAction: boolean; hasLoader: boolean; api: boolean; intents: string[] };

export function intentsOf(source: string, fileName = "route.tsx"): { intents: string[]; readsIntent: boolean } {
  const sf = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, fileName.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found = new Set<string>();
  const literal = (n: ts.Node | undefined) => (n && (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) ? n.text : undefined);
  const nameText = (n: ts.PropertyName) => (ts.isIdentifier(n) || ts.isStringLiteral(n) ? n.text : undefined);
  const isIntentExpr = (n: ts.Expression) => (ts.isIdentifier(n) && n.text === "intent") || (ts.isPropertyAccessExpression(n) && n.name.text === "intent");
  const visit = (node: ts.Node) => {
    if (ts.isPropertyAssignment(node) && nameText(node.name) === "intents" && ts.isObjectLiteralExpression(node.initializer)) {
      for (const p of node.initializer.properties) {
        const key = p.name ? nameText(p.name) : undefined;
        if (key) found.add(key);
      }
    }
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && /INTENTS$/.test(node.name.text) && node.initializer) {
      let init: ts.Expression = node.initializer;
      while (ts.isAsExpression(init) || ts.isSatisfiesExpression(init)) init = init.expression;
      if (ts.isArrayLiteralExpression(init)) for (const e of init.elements) if (literal(e)) found.add(literal(e)!);
    }
    if (ts.isTypeAliasDeclaration(node) && node.name.text === "Intent" && ts.isUnionTypeNode(node.type)) {
      for (const t of node.type.types) if (ts.isLiteralTypeNode(t) && ts.isStringLiteral(t.literal)) found.add(t.literal.text);
    }
    if (ts.isSwitchStatement(node) && isIntentExpr(node.expression)) {
      for (const clause of node.caseBlock.clauses) if (ts.isCaseClause(clause) && literal(clause.expression)) found.add(literal(clause.expression)!);
    }
    if (ts.isBinaryExpression(node) && [ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken].includes(node.operatorToken.kind)) {
      if (isIntentExpr(node.left) && literal(node.right)) found.add(literal(node.right)!);
      if (isIntentExpr(node.right) && literal(node.left)) found.add(literal(node.left)!);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return { intents: [...found].sort(), readsIntent: /\bintent\b/.test(source) };
}

export async function walkRoutes(): Promise<{ routes: WalkedRoute[]; unreadable: string[] }> {
  const table = routeTable();
  const routes: WalkedRoute[] = [];
  const unreadable: string[] = [];
  for (const route of table) {
    const file = path.resolve("app", route.file);
    const mod = (await import(/* @vite-ignore */ file)) as { action?: unknown; loader?: unknown };
    const p = fullPath(route, table);
    const api = p === "/api" || p.startsWith("/api/");
    let intents: string[] = [];
    if (mod.action && !api) {
      const read = intentsOf(fs.readFileSync(file, "utf8"), file);
      intents = read.intents;
      if (read.readsIntent && !intents.length) unreadable.push(`${route.file}: its action reads an intent, none could be read`);
    }
    routes.push({ route, path: p, file: route.file, hasAction: !!mod.action, hasLoader: !!mod.loader, api, intents });
  }
  return { routes, unreadable };
}

/** A concrete URL for a route pattern: every parameter a well-formed id nobody has. */
export const concrete = (p: string) =>
  p
    .replace(/:[A-Za-z]+\?/g, "")
    .replace(/:[A-Za-z]+/g, "00000000-0000-0000-0000-000000000000")
    .replace(/\*/g, "x");

// bull-board's route table ships without type declarations for this path.
const BOARD_ROUTES = "@bull-board/api/dist/routes.js";

/** bull-board's writes (every route of its API that is not a GET), with parameters filled in. */
export async function queueBoardWrites(basePath: string, queueName: string): Promise<{ method: string; path: string }[]> {
  const { appRoutes } = (await import(/* @vite-ignore */ BOARD_ROUTES)) as { appRoutes: { api: { method: string; route: string | string[] }[] } };
  const out: { method: string; path: string }[] = [];
  for (const r of appRoutes.api) {
    if (r.method.toLowerCase() === "get") continue;
    for (const route of [r.route].flat()) {
      const filled = route.replace(":queueName", queueName).replace(":jobId", "1").replace(":queueStatus", "failed");
      out.push({ method: r.method.toUpperCase(), path: basePath + filled });
    }
  }
  return out;
}
