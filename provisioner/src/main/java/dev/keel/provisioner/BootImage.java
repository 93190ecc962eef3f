package dev.keel.provisioner;

/**
 * What an instance's brokers boot: the machine image ({@code machineImage}, an AMI id on AWS) and the Keel broker
 * image its user data runs ({@code brokerImage}, {@code registry/repository@sha256:<digest>}).
 */
public record BootImage(String machineImage, String brokerImage) {
}
