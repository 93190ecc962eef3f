package dev.keel.controlplane.shared;

import java.time.Clock;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The one clock time-dependent code asks, so tests can reason about time. */
@Configuration
class Clocks {

    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }
}
