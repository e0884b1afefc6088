// The sync outbox gets what a durable, restartable item needs: its state, an idempotency key (client-generated,
// so a retried item never creates a second dataset or run), the progress of its steps, the platform's answer,
// and the process that is sending it (a crash leaves 'sending' behind; a live owner keeps it).
export const sql = `
ALTER TABLE sync_outbox ADD COLUMN state TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'sending', 'done', 'failed'));
ALTER TABLE sync_outbox ADD COLUMN idempotency_key TEXT;
ALTER TABLE sync_outbox ADD COLUMN progress_json TEXT NOT NULL DEFAULT '{}';
ALTER TABLE sync_outbox ADD COLUMN result_json TEXT;
ALTER TABLE sync_outbox ADD COLUMN blocked TEXT;
ALTER TABLE sync_outbox ADD COLUMN claimed_by INTEGER;
ALTER TABLE sync_outbox ADD COLUMN updated_at TEXT;
CREATE UNIQUE INDEX sync_outbox_by_key ON sync_outbox(idempotency_key);
CREATE INDEX sync_outbox_by_state ON sync_outbox(state, id);
`;
