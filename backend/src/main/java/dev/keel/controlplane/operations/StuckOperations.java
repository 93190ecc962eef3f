package dev.keel.controlplane.operations;

import java.time.Duration;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * The gauge {@code keel.operations.stuck}: operations pending or running that no worker has moved on for longer than
 * {@code keel.operations.stuck-after} and that wait for no later look. Read from the database at each scrape, so every
 * replica tells the same, whichever runs the operations.
 */
@Component
class StuckOperations {

    StuckOperations(OperationRepository repository, MeterRegistry meters,
                    @Value("${keel.operations.stuck-after:20m}") Duration stuckAfter) {
        Gauge.builder("keel.operations.stuck", () -> repository.stuck(stuckAfter))
                .description("Operations no worker has moved on for longer than keel.operations.stuck-after")
                .register(meters);
    }
}
