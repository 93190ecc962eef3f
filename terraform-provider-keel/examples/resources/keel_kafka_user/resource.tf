resource "keel_kafka_user" "orders_service" {
  instance_id = keel_instance.orders.id
  name        = "orders-service"

  # Change it to rotate the password.
  password_version = 1
}

# What a Kafka client needs: the user's name and password, over SASL_SSL with SCRAM-SHA-512.
output "orders_service_jaas" {
  value     = "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"${keel_kafka_user.orders_service.name}\" password=\"${keel_kafka_user.orders_service.password}\";"
  sensitive = true
}
