package dev.keel.provisioner.aws.resources;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;

import dev.keel.provisioner.ProvisioningException;
import dev.keel.provisioner.StepRun;
import dev.keel.provisioner.aws.AwsClients;
import dev.keel.provisioner.aws.AwsProvisionerSettings;
import dev.keel.provisioner.aws.DesiredState;
import dev.keel.provisioner.aws.ObservedState;
import dev.keel.provisioner.aws.Patience;

/**
 * What a resource applies its changes with: the customer account's clients, the desired state, what the step observed
 * (kept current as the resource creates things), and patient waits.
 */
public final class StepContext {

    private final AwsClients.Customer aws;
    private final DesiredState desired;
    private final AwsProvisionerSettings settings;
    private final LongAdder waitedNanos;
    private final Observation observation;
    private final List<String> own;
    private final StepRun run;
    private ObservedState observed;

    /** Observes resources of the given types afresh, through the resources that own them. */
    @FunctionalInterface
    public interface Observation {
        List<ObservedState.Resource> of(List<String> types);
    }

    /** {@code own}: the types of the resource whose step this is; {@code run}: the run of the step it applies in. */
    public StepContext(AwsClients.Customer aws, DesiredState desired, List<String> own, ObservedState observed,
                       Observation observation, AwsProvisionerSettings settings, LongAdder waitedNanos, StepRun run) {
        this.aws = aws;
        this.run = run;
        this.own = List.copyOf(own);
        this.desired = desired;
        this.observed = observed;
        this.observation = observation;
        this.settings = settings;
        this.waitedNanos = waitedNanos;
    }

    public AwsClients.Customer aws() {
        return aws;
    }

    public ObservedState observed() {
        return observed;
    }

    public DesiredState desired() {
        return desired;
    }

    /** Records a fresh observation of {@code types}. */
    public void observed(List<String> types, List<ObservedState.Resource> fresh) {
        observed = observed.replacing(types, fresh);
    }

    /** Records a fresh observation of the step's own resource (of its own types, whatever else it holds). */
    public void observedOwn(List<ObservedState.Resource> fresh) {
        observed(own, fresh.stream().filter(r -> own.contains(r.type())).toList());
    }

    /** Observes {@code types} afresh, whoever owns them, and records it. */
    public void refresh(List<String> types) {
        observed(types, observation.of(types));
    }

    /**
     * Waits until {@code done}, patiently as {@code kind} deserves: the first look once the first pause has passed
     * since {@code since} (when AWS says the awaited lifecycle began; null: when an earlier run of the step began
     * waiting for {@code what}, or now), then backing off. Anchored on that moment, a wait resumed after a restart or
     * in a later run carries on where it was rather than starting over; past the kind's time limit it fails
     * retryably. A pause longer than the run may take in its thread ends the run ({@link dev.keel.provisioner.StepWaiting}).
     */
    public void await(String kind, String what, Instant since, BooleanSupplier done) {
        Patience patience = settings.waits().of(kind);
        double scale = settings.waits().scale();
        Clock clock = settings.clock();
        Instant earlier = run.waitingSince(what);
        Instant start = since != null ? since : earlier != null ? earlier : clock.instant();
        Duration firstLook = patience.pause(Duration.ZERO, scale);
        Duration waited = Duration.between(start, clock.instant());
        if (waited.compareTo(firstLook) < 0) {
            pause(firstLook.minus(waited), what, start);
        }
        while (!done.getAsBoolean()) {
            waited = Duration.between(start, clock.instant());
            if (waited.compareTo(patience.limit()) > 0) {
                throw new ProvisioningException("NOT_READY", "Still waiting for " + what + " after "
                        + waited.toSeconds() + " s, longer than the " + patience.limit().toSeconds()
                        + " s allowed for a " + kind + "; the step will be tried again.", true);
            }
            pause(patience.pause(waited, scale), what, start);
        }
    }

    public AwsProvisionerSettings settings() {
        return settings;
    }

    private void pause(Duration pause, String what, Instant start) {
        run.pause(pause, what, start, settings.clock().instant());
        waitedNanos.add(pause.toNanos());
    }

    static Instant instant(ObservedState.Resource resource) {
        String since = resource.attribute("since");
        return since == null ? null : Instant.parse(since);
    }
}
