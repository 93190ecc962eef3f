package dev.keel.provisioner.aws;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;

import dev.keel.provisioner.ProvisioningException;
import dev.keel.provisioner.ProvisioningTarget;

/** What one step works with: the customer's clients, the target, its desired state, the settings. */
record StepContext(AwsClients.Customer aws, ProvisioningTarget target, DesiredState desired,
                   AwsProvisionerSettings settings, LongAdder waitedNanos) {

    String instanceId() {
        return target.instanceId().toString();
    }

    /** Polls until {@code done}; after the configured timeout fails retryably so the step is tried again later. */
    void await(String what, BooleanSupplier done) {
        Instant deadline = settings.clock().instant().plus(settings.waitTimeout());
        while (!done.getAsBoolean()) {
            if (settings.clock().instant().isAfter(deadline)) {
                throw new ProvisioningException("NOT_READY", "Still waiting for " + what + " after "
                        + settings.waitTimeout() + "; the step will be tried again.", true);
            }
            try {
                Thread.sleep(settings.pollInterval().toMillis());
                waitedNanos.add(settings.pollInterval().toNanos());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ProvisioningException("INTERRUPTED", "Interrupted while waiting for " + what, true);
            }
        }
    }

    static List<software.amazon.awssdk.services.ec2.model.Tag> ec2Tags(Map<String, String> tags) {
        List<software.amazon.awssdk.services.ec2.model.Tag> out = new ArrayList<>();
        tags.forEach((k, v) -> out.add(software.amazon.awssdk.services.ec2.model.Tag.builder().key(k).value(v)
                .build()));
        return out;
    }
}
