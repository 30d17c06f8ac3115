// Requests that change something on the server. Each repeats the `jungle_csrf` cookie in an `X-CSRF-Token`
// header, which the server asks of every such request (docs/security.md): another site's page can make the
// browser send the cookie, but cannot read it to write the header.

/** The token the server set in the `jungle_csrf` cookie. */
function csrfToken() {
  const pair = document.cookie.split(";").map((c) => c.trim()).find((c) => c.startsWith("jungle_csrf="));
  return pair ? pair.slice("jungle_csrf=".length) : "";
}

/**
 * POSTs `body` (a string sent as `contentType`) and reads the JSON answer. Resolves to the answer; rejects
 * with an Error carrying the server's message when the request is refused.
 */
export async function post(url, body, contentType) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": contentType, "X-CSRF-Token": csrfToken() },
    body,
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(answer.error || response.statusText);
  return answer;
}

/** POSTs a value as JSON (see `post`). */
export function postJson(url, value = {}) {
  return post(url, JSON.stringify(value), "application/json");
}
