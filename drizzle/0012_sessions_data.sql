-- Issue 18: every session's desired/state moves into "sessions", one vocabulary (docs/sessions.md).
-- desired: started/running/connected → run, anything else → stop. A session that should run
-- starts as "waiting" (a worker takes it and writes what is); one that ended in an error is
-- "failed" with its text. One account, one holder: when two purposes wanted the same account,
-- the first below keeps it and the other is stopped with a note.
INSERT INTO "sessions" ("purpose", "key", "account_id", "desired", "actual", "error", "planet", "since", "updated_at")
SELECT 'stalker', s."account_id", s."account_id",
  CASE WHEN s."desired" = 'started' THEN 'run' ELSE 'stop' END,
  CASE WHEN s."desired" = 'started' THEN 'waiting' WHEN s."state" = 'error' THEN 'failed' ELSE 'stopped' END,
  CASE WHEN s."state" = 'error' THEN s."error" ELSE NULL END,
  NULL, s."since", now()
FROM "stalker_sessions" s;
--> statement-breakpoint
INSERT INTO "sessions" ("purpose", "key", "account_id", "desired", "actual", "error", "note", "info", "since", "updated_at")
SELECT 'trader', t."account_id", t."account_id",
  CASE WHEN t."desired" = 'started' AND NOT EXISTS (SELECT 1 FROM "sessions" x WHERE x."account_id" = t."account_id" AND x."desired" = 'run') THEN 'run' ELSE 'stop' END,
  CASE WHEN t."desired" = 'started' AND NOT EXISTS (SELECT 1 FROM "sessions" x WHERE x."account_id" = t."account_id" AND x."desired" = 'run') THEN 'waiting'
       WHEN t."state" = 'error' THEN 'failed' ELSE 'stopped' END,
  CASE WHEN t."state" = 'error' THEN t."error" ELSE NULL END,
  CASE WHEN t."desired" = 'started' AND EXISTS (SELECT 1 FROM "sessions" x WHERE x."account_id" = t."account_id" AND x."desired" = 'run') THEN 'Stopped: another session uses this account' ELSE NULL END,
  '{}'::jsonb, t."since", now()
FROM "trader_sessions" t;
--> statement-breakpoint
INSERT INTO "sessions" ("purpose", "key", "account_id", "desired", "actual", "error", "since", "updated_at")
SELECT 'relay', 'bot', NULL,
  CASE WHEN b."desired" = 'running' THEN 'run' ELSE 'stop' END,
  CASE WHEN b."desired" = 'running' THEN 'waiting' WHEN b."state" = 'error' THEN 'failed' ELSE 'stopped' END,
  CASE WHEN b."state" = 'error' THEN b."error" ELSE NULL END,
  b."since", now()
FROM "galacord_bot" b WHERE b."id" = 1;
--> statement-breakpoint
INSERT INTO "sessions" ("purpose", "key", "account_id", "desired", "actual", "error", "note", "since", "updated_at")
SELECT 'relay-link', a."account_id", a."account_id",
  CASE WHEN a."desired" = 'connected' AND a."state" <> 'error' AND NOT EXISTS (SELECT 1 FROM "sessions" x WHERE x."account_id" = a."account_id" AND x."desired" = 'run') THEN 'run' ELSE 'stop' END,
  CASE WHEN a."desired" = 'connected' AND a."state" <> 'error' AND NOT EXISTS (SELECT 1 FROM "sessions" x WHERE x."account_id" = a."account_id" AND x."desired" = 'run') THEN 'waiting'
       WHEN a."state" = 'error' THEN 'failed' ELSE 'stopped' END,
  CASE WHEN a."state" = 'error' THEN a."error" ELSE NULL END,
  CASE WHEN a."desired" = 'connected' AND a."state" <> 'error' AND EXISTS (SELECT 1 FROM "sessions" x WHERE x."account_id" = a."account_id" AND x."desired" = 'run') THEN 'Stopped: another session uses this account' ELSE NULL END,
  a."updated_at", now()
FROM "galacord_accounts" a;
--> statement-breakpoint
INSERT INTO "sessions" ("purpose", "key", "account_id", "desired", "actual", "error", "note", "since", "updated_at")
SELECT 'collections', c."account_id", c."account_id",
  CASE WHEN c."desired" = 'connected' AND NOT EXISTS (SELECT 1 FROM "sessions" x WHERE x."account_id" = c."account_id" AND x."desired" = 'run') THEN 'run' ELSE 'stop' END,
  CASE WHEN c."desired" = 'connected' AND NOT EXISTS (SELECT 1 FROM "sessions" x WHERE x."account_id" = c."account_id" AND x."desired" = 'run') THEN 'waiting'
       WHEN c."state" = 'error' THEN 'failed' ELSE 'stopped' END,
  CASE WHEN c."state" = 'error' THEN c."error" ELSE NULL END,
  CASE WHEN c."desired" = 'connected' AND EXISTS (SELECT 1 FROM "sessions" x WHERE x."account_id" = c."account_id" AND x."desired" = 'run') THEN 'Stopped: another session uses this account' ELSE NULL END,
  c."since", now()
FROM "collections_connections" c;
--> statement-breakpoint
-- Sightings: one row per user (the latest visit any stalker saw).
INSERT INTO "sightings" ("user_id", "nick", "planet", "first_seen", "last_seen", "left_at", "seen_by")
SELECT DISTINCT ON (s."user_id") s."user_id", s."nick", s."planet", s."first_seen", s."last_seen", s."left_at", s."stalker_id"
FROM "stalker_sightings" s
ORDER BY s."user_id", s."last_seen" DESC;
