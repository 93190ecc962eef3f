# A diskless Kafka instance in a VPC of an onboarded cloud account, sized against the current catalog.
#
# With ./dev up running (it builds the provider and writes the CLI configuration that points Terraform at it):
#   export TF_CLI_CONFIG_FILE=$PWD/.local/dev/terraform.rc
#   export KEEL_CLIENT_ID=keel-automation-demo KEEL_CLIENT_SECRET=keel-automation-demo-secret
#   set -a; . .local/dev/demo-account.env; set +a
#   cd terraform-provider-keel/examples/demo
#   terraform apply -var cloud_account_id=$DEMO_ACCOUNT_ID -var vpc_id=$DEMO_VPC_ID
#   terraform destroy -var cloud_account_id=$DEMO_ACCOUNT_ID -var vpc_id=$DEMO_VPC_ID

terraform {
  required_providers {
    keel = {
      source = "keel-dev/keel"
    }
  }
}

variable "cloud_account_id" {
  type        = string
  description = "A verified cloud account (keel cloud-accounts list)."
}

variable "vpc_id" {
  type        = string
  description = "The VPC to run in; its subnets (1 or 3 zones) become the instance's zones."
}

variable "name" {
  type    = string
  default = "orders"
}

variable "region" {
  type    = string
  default = "us-east-1"
}

variable "wal" {
  type        = string
  default     = "S3"
  description = "EBS (1 zone), S3 (1 or 3 zones) or FSWAL (3 zones). Changing it replaces the instance."
}

variable "aku" {
  type        = number
  default     = 3
  description = "Capacity in AKU; changes in place."
}

variable "deletion_protection" {
  type        = bool
  default     = false
  description = "While true, the instance cannot be destroyed; set it to false and apply first."
}

variable "fsx" {
  type = object({
    throughput_mbps = number
    count           = number
  })
  default     = null
  description = "FSx for ONTAP file systems, for FSWAL only."
}

data "keel_sizing_catalog" "current" {}

data "keel_cloud_account_networks" "account" {
  cloud_account_id = var.cloud_account_id
  region           = var.region
}

locals {
  vpc = one([for v in data.keel_cloud_account_networks.account.vpcs : v if v.vpc_id == var.vpc_id])
}

resource "keel_instance" "this" {
  name             = var.name
  cloud_account_id = var.cloud_account_id
  region           = var.region
  vpc_id           = local.vpc.vpc_id
  subnets          = [for s in local.vpc.subnets : { availability_zone = s.availability_zone, subnet_id = s.subnet_id }]
  wal              = var.wal
  aku              = var.aku
  fsx              = var.fsx

  deletion_protection = var.deletion_protection

  timeouts = {
    create = "20m"
    update = "20m"
    delete = "20m"
  }

  lifecycle {
    precondition {
      condition     = var.aku >= data.keel_sizing_catalog.current.aku_min && var.aku <= data.keel_sizing_catalog.current.aku_max
      error_message = "aku must be within the catalog's range."
    }
  }
}

output "id" {
  value = keel_instance.this.id
}

output "bootstrap_servers" {
  value = keel_instance.this.bootstrap_servers
}

output "brokers" {
  value = "${keel_instance.this.broker_count} × ${keel_instance.this.instance_type}"
}

output "write_capacity_mibps" {
  value = keel_instance.this.aku * data.keel_sizing_catalog.current.aku_write_mibps
}

# The default Kafka user, whose ACLs allow everything: terraform output -raw admin_password
output "admin_username" {
  value = keel_instance.this.admin_username
}

output "admin_password" {
  value     = keel_instance.this.admin_password
  sensitive = true
}
