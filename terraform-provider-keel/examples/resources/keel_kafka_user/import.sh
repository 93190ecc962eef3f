# INSTANCE_ID/NAME; an imported user's password is null until its next rotation.
terraform import keel_kafka_user.orders_service 8e3d1f27-6c4b-4a9e-b0d5-3f2a7c1e9b46/orders-service
