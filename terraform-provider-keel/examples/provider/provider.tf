# Every setting can come from the environment instead: KEEL_API_URL, KEEL_ISSUER, KEEL_ORG,
# KEEL_CLIENT_ID and KEEL_CLIENT_SECRET (a service account), or KEEL_TOKEN (an access token).
provider "keel" {
  api_url       = "https://keel.example.com/api/v1"
  issuer        = "https://id.example.com/realms/byoc"
  organization  = "acme"
  client_id     = "platform-automation"
  client_secret = var.keel_client_secret
}
