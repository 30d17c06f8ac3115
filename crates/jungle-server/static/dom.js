// Small helpers every page uses.

/** The element with this id. */
export const $ = (id) => document.getElementById(id);

/** Shows an error (an Error or text) in the element with this id, or hides it when there is none. */
export function showError(id, error) {
  const el = $(id);
  el.textContent = error ? String(error.message || error) : "";
  el.hidden = !error;
}
