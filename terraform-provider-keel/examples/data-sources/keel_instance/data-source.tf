data "keel_instance" "orders" {
  name = "orders"
}

output "orders_bootstrap_servers" {
  value = data.keel_instance.orders.bootstrap_servers
}
