// App settings as key/value JSON (e.g. the model folders the person added).
export const sql = `
CREATE TABLE settings (
  key         TEXT PRIMARY KEY,
  value_json  TEXT NOT NULL,
  updated_at  TEXT NOT NULL
);
`;
