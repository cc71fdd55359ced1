/**
 * The baseline of bench/rates.ts: a bare Express handler answering GET /api/rates with the
 * very bytes the app answered (read from BENCH_BODY_FILE, and its gzip copy from
 * BENCH_GZIP_FILE for clients that accept gzip). No helmet, no compression, no auth, no
 * Remix, no database. Runs in its own process, like the app, so neither shares an event
 * loop with the load generator.
 */
import fs from "node:fs";
import express from "express";

const body = fs.readFileSync(process.env.BENCH_BODY_FILE!);
const gzipped = fs.readFileSync(process.env.BENCH_GZIP_FILE!);
const app = express();
app.disable("x-powered-by");
app.disable("etag");
app.get("/api/rates", (req, res) => {
  res.set("Content-Type", "application/json; charset=utf-8");
  if (/\bgzip\b/.test(req.headers["accept-encoding"] ?? "")) res.set("Content-Encoding", "gzip").send(gzipped);
  else res.send(body);
});
const server = app.listen(Number(process.env.PORT), "127.0.0.1", () => console.log("ready"));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
