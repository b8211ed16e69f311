// Helpers for the JSON API used by the desktop app.
export function jsonError(status: number, error: string, headers?: HeadersInit): Response {
  return Response.json({ error }, { status, headers });
}

export const methodNotAllowed = () => jsonError(405, "Method not allowed", { Allow: "POST" });
