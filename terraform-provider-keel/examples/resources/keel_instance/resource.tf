# Three zones with the write-ahead log on FSx for ONTAP: 6 AKU need 120 MiB/s of FSx write capacity,
# which one 384 MBps file system (150 MiB/s) covers.
resource "keel_instance" "orders" {
  name             = "orders"
  cloud_account_id = keel_cloud_account.production.id
  region           = "us-east-1"
  vpc_id           = "vpc-0a1b2c3d4e5f67890"
  subnets = [
    { availability_zone = "us-east-1a", subnet_id = "subnet-0123456789abcdef0" },
    { availability_zone = "us-east-1b", subnet_id = "subnet-0fedcba9876543210" },
    { availability_zone = "us-east-1c", subnet_id = "subnet-0a0b0c0d0e0f01234" },
  ]
  wal = "FSWAL"
  aku = 6
  fsx = {
    throughput_mbps = 384
    count           = 1
  }

  timeouts = {
    create = "45m"
  }
}

output "bootstrap_servers" {
  value = keel_instance.orders.bootstrap_servers
}
