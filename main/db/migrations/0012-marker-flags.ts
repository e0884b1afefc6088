// rows.marker_flags: each row's markers as the filters read them (main/rows/marker-flags.ts), so the rows table and
// the label queue can show only the rows where a marker fired (or held) without parsing every row's JSON. Rows
// appended from objects (runs, grading) carry it; an import, and every row stored before this column, leave it
// null, filled for a dataset the first time a marker filter is asked of it. No index: a filter reads the
// dataset's rows by its primary key and tests this short text, some milliseconds for 100k rows.
export const sql = `
ALTER TABLE rows ADD COLUMN marker_flags TEXT;
`;
