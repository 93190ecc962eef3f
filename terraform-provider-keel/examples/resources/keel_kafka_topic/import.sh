# INSTANCE_ID/NAME
terraform import keel_kafka_topic.orders 8e3d1f27-6c4b-4a9e-b0d5-3f2a7c1e9b46/orders
