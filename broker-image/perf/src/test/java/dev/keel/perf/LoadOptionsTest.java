package dev.keel.perf;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LoadOptionsTest {

    @Test
    void onlyTheBootstrapIsRequired() {
        LoadOptions options = LoadOptions.parse(new String[]{"--bootstrap", "127.0.0.1:19092"});

        assertThat(options.topic()).startsWith("keel-perf-");
        assertThat(options.partitions()).isEqualTo(6);
        assertThat(options.replicationFactor()).isNull();
        assertThat(options.messageSize()).isEqualTo(1024);
        assertThat(options.rate()).isEqualTo(1000);
        assertThat(options.duration()).isEqualTo(Duration.ofSeconds(60));
        assertThat(options.consumers()).isEqualTo(1);
        assertThat(options.json()).isFalse();
        assertThat(options.commandConfig()).isNull();
    }

    @Test
    void everyOptionIsRead() {
        LoadOptions options = LoadOptions.parse(("--bootstrap a:1,b:2 --topic orders --partitions 12 --replication-factor 2"
                + " --message-size 4096 --rate 2500.5 --duration 30 --producers 2 --consumers 0 --report-interval 5"
                + " --json --keep-topic --command-config client.properties").split(" "));

        assertThat(options).isEqualTo(new LoadOptions("a:1,b:2", "orders", 12, 2, 4096, 2500.5, Duration.ofSeconds(30),
                2, 0, Duration.ofSeconds(5), true, true, java.nio.file.Path.of("client.properties")));
    }

    @Test
    void badInputNamesTheOptionAndWhatItTakes() {
        assertThatThrownBy(() -> LoadOptions.parse(new String[]{"--rate", "10"}))
                .hasMessageContaining("--bootstrap is required");
        assertThatThrownBy(() -> LoadOptions.parse(new String[]{"--bootstrap", "a:1", "--partitions", "0"}))
                .hasMessage("--partitions must be between 1 and 10000, got 0");
        assertThatThrownBy(() -> LoadOptions.parse(new String[]{"--bootstrap", "a:1", "--duration", "1.5"}))
                .hasMessage("--duration must be a whole number, got '1.5'");
        assertThatThrownBy(() -> LoadOptions.parse(new String[]{"--bootstrap", "a:1", "--speed", "9"}))
                .hasMessage("unknown option --speed");
        assertThatThrownBy(() -> LoadOptions.parse(new String[]{"--bootstrap"}))
                .hasMessage("--bootstrap needs a value");
    }
}
