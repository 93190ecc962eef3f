# INSTANCE_ID/ACL_ID ('keel acls list --instance NAME' shows the ids).
terraform import keel_kafka_acl.write_orders 8e3d1f27-6c4b-4a9e-b0d5-3f2a7c1e9b46/7c0e2a14-5b3d-4f6e-9a8b-1c2d3e4f5a6b
