// An outbox item counts the tries in a row that failed the same way (failure_sig names the way), so an item the
// platform or its storage refuses for the same reason every time stops retrying and says so, instead of trying
// without end (issue: a chunked upload that S3 answered with 501 was retried forever).
export const sql = `
ALTER TABLE sync_outbox ADD COLUMN failure_streak INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sync_outbox ADD COLUMN failure_sig TEXT;
`;
