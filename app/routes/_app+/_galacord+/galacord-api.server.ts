import { apiError } from "~/http/api.server";

/** Start/Stop carry nothing: anything longer than this is not a command body. */
export const COMMAND_BODY_MAX_BYTES = 4 * 1024;
export const COMMAND_BODY_ERROR = "The body must be empty or an empty JSON object: {}";

/**
 * Reads the body of `POST /api/bot/start|stop` (spec 2 §7 shows them without one). No body or
 * a blank one is accepted whatever the Content-Type (a bare `fetch(url, {method: "POST"})`, a
 * form post with nothing in it, an empty FormData); so is `{}` as JSON (or as text/plain, what
 * `fetch` sends for a string body). A body that is there but is malformed JSON (400), any other
 * JSON value, an object or a form with fields (400), another type with content (415) or an
 * oversized one (413) is refused with nothing changed.
 */
export async function readCommandBody(request: Request): Promise<void> {
  const length = Number(request.headers.get("content-length") ?? "0");
  if (length > COMMAND_BODY_MAX_BYTES) apiError(413, `Request body too large (limit ${COMMAND_BODY_MAX_BYTES} bytes)`);
  let text = "";
  if (request.body) {
    const reader = request.body.getReader();
    const chunks: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch {
        apiError(400, "Could not read request body");
      }
      if (chunk.done) break;
      total += chunk.value.byteLength;
      if (total > COMMAND_BODY_MAX_BYTES) {
        await reader.cancel().catch(() => {});
        apiError(413, `Request body too large (limit ${COMMAND_BODY_MAX_BYTES} bytes)`);
      }
      chunks.push(chunk.value);
    }
    text = Buffer.concat(chunks).toString("utf8");
  }
  if (text.trim() === "") return;
  const type = (request.headers.get("content-type") ?? "").trim();
  if (/^(multipart\/form-data|application\/x-www-form-urlencoded)\s*(;|$)/i.test(type)) {
    // A form with nothing in it (what `new FormData()` sends) is as empty as no body.
    let fields = 1;
    try {
      fields = [...(await new Request("http://body.invalid/", { method: "POST", headers: { "content-type": type }, body: text }).formData()).keys()].length;
    } catch {
      apiError(400, "Malformed form body");
    }
    if (fields > 0) apiError(400, COMMAND_BODY_ERROR);
    return;
  }
  if (type && !/^(application\/json|text\/plain)\s*(;|$)/i.test(type)) apiError(415, "Content-Type must be application/json");
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    apiError(400, "Malformed JSON body");
  }
  if (!body || typeof body !== "object" || Array.isArray(body) || Object.keys(body).length > 0) apiError(400, COMMAND_BODY_ERROR);
}
