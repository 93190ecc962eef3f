# The role comes from the onboarding template (keel cloud-accounts template), deployed in the account.
resource "keel_cloud_account" "production" {
  name           = "production"
  aws_account_id = "123456789012"
  role_arn       = "arn:aws:iam::123456789012:role/KeelControlPlane"
  regions        = ["us-east-1"]
}
