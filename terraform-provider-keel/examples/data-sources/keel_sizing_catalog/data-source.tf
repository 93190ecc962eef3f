data "keel_sizing_catalog" "current" {}

# The write capacity an instance of 12 AKU buys under the current catalog.
output "write_mibps_at_12_aku" {
  value = 12 * data.keel_sizing_catalog.current.aku_write_mibps
}
