-- The EC2 instance a broker last reported from: a machine that went silent is replaced by id, so a
-- replacement (a new id) is never mistaken for it.
ALTER TABLE broker_reports ADD COLUMN ec2_instance_id text;
