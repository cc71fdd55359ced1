/**
 * A page action's form body. The gate lets only form content types reach a page action
 * (app/utils/auth-gate.server.ts); a malformed multipart body still makes
 * `request.formData()` throw, which Remix would answer with a 500: it is the client's
 * mistake, so it is a 400.
 */
export async function readFormData(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throw new Response("The form could not be read", { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
}
