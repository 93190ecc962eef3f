resource "keel_kafka_topic" "orders" {
  instance_id = keel_instance.orders.id
  name        = "orders"
  partitions  = 12

  configs = {
    "retention.ms"   = "604800000"
    "cleanup.policy" = "delete"
  }
}
