# orders-service may write to the orders topic and read every topic whose name starts with "orders.".
resource "keel_kafka_acl" "write_orders" {
  instance_id   = keel_instance.orders.id
  principal     = "User:${keel_kafka_user.orders_service.name}"
  resource_type = "TOPIC"
  resource_name = "orders"
  operation     = "WRITE"
}

resource "keel_kafka_acl" "read_orders_topics" {
  instance_id   = keel_instance.orders.id
  principal     = "User:${keel_kafka_user.orders_service.name}"
  resource_type = "TOPIC"
  resource_name = "orders."
  pattern_type  = "PREFIXED"
  operation     = "READ"
}
