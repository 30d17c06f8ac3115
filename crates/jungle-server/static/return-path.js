// Where the log-in page sends a player once signed in: back to the page they came from, but only to a page
// of this site. A link to /login?next=https://evil.example (or //evil.example, /\evil.example, which browsers
// read as another host) must not turn the site's log-in into a way to send people elsewhere.

/** The same-site path (with query and fragment) `wanted` names, or "/" when it is missing, of another site,
 * or an account page (going back to the log-in page would look as if it failed). */
export function returnPath(wanted, origin = location.origin) {
  if (!wanted) return "/";
  let url;
  try {
    url = new URL(wanted, origin);
  } catch {
    return "/";
  }
  // Only a path as the `next` parameter, or a full address of this site as the referrer.
  const pathOnly = wanted.startsWith("/") && !wanted.startsWith("//") && !wanted.startsWith("/\\");
  const sameSite = url.origin === origin && (pathOnly || wanted.startsWith(`${origin}/`));
  if (!sameSite || url.pathname === "/login") return "/";
  return url.pathname + url.search + url.hash;
}
