package dev.keel.provisioner;

/**
 * What Keel does about the S3 gateway endpoint the brokers' S3 traffic should take instead of a NAT gateway.
 * {@code CREATE}: use the one serving each subnet's route table, or create one (or add the missing route tables to
 * the one Keel created in the VPC). {@code REQUIRE_EXISTING}: use the customer's, and refuse to create the instance
 * when a subnet's route table has none. {@code NONE}: leave the VPC's routing alone (traffic may go through a NAT
 * gateway, and the estimate prices it).
 */
public enum S3GatewayEndpointMode { CREATE, REQUIRE_EXISTING, NONE }
