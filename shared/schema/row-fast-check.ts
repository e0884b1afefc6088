// The common case of a valid row, checked without zod (so a parse worker need not load it to import a clean
// file). A row this says no to goes through rowSchema, which is the rule and gives the messages.
// Only what the SDK's own validate() checks (§1.7) is enforced; everything else is stored as given.

/** Fast structural check for the common case; zod runs (for its messages) only when this says no. */
export function looksLikeValidRow(row: Record<string, unknown>): boolean {
  const reward = row.reward;
  const calibration = row.calibration;
  return (
    row.schema_version === '1' &&
    typeof row.prompt === 'string' &&
    Array.isArray(row.steps) &&
    typeof row.final_text === 'string' &&
    (reward === undefined || reward === null || typeof reward === 'number') &&
    (calibration === undefined || calibration === null)
  );
}
