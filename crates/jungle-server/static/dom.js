// Small helpers every page uses.

/** The element with this id. */
export const $ = (id) => document.getElementById(id);
