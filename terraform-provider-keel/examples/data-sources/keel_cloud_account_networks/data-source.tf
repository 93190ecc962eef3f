data "keel_cloud_account_networks" "production" {
  cloud_account_id = keel_cloud_account.production.id
  region           = "us-east-1"
}

# The subnets of the VPC named "kafka", ready for keel_instance.subnets.
locals {
  kafka_vpc = one([for v in data.keel_cloud_account_networks.production.vpcs : v if v.name == "kafka"])
  subnets   = [for s in local.kafka_vpc.subnets : { availability_zone = s.availability_zone, subnet_id = s.subnet_id }]
}
