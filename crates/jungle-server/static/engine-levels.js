// The engine levels' published ratings (docs/ratings.md) beside each level in a level chooser.

import { t } from "./i18n.js";

/** Adds each level's rating to the options of `select` (whose values are the levels); quietly does nothing
 * if the ratings cannot be fetched. */
export async function labelLevels(select) {
  let levels;
  try {
    const response = await fetch("/api/engine-levels");
    if (!response.ok) return;
    levels = await response.json();
  } catch {
    return;
  }
  for (const { level, rating } of levels) {
    const option = select.querySelector(`option[value="${Number(level)}"]`);
    if (!option) continue;
    option.textContent = t("levels.rated", { label: option.textContent, rating });
    option.dataset.rating = String(rating);
  }
}
