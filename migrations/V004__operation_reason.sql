-- Why the control plane started an operation on its own (a repair names the drift it converges);
-- null for operations a user asked for.
ALTER TABLE operations ADD COLUMN reason text;
