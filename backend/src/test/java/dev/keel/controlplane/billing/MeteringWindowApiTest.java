package dev.keel.controlplane.billing;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import dev.keel.controlplane.support.ApiTest;
import dev.keel.controlplane.support.TestEnvironment;
import dev.keel.marketplace.metering.UsageMeter;
import dev.keel.marketplace.metering.UsageRecord;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A metering run against the test stack's AWS API emulator, which keeps AWS's rules: hours past AWS's 6-hour window,
 * and an hour AWS already has with a different quantity.
 */
class MeteringWindowApiTest extends ApiTest {

    @Autowired
    MeteringRun run;
    @Autowired
    UsageMeter meter;

    @Test
    void hoursPastTheWindowFailLoudlyAndAnHourAwsHasWithAnotherQuantityIsNeverSentAgain() throws Exception {
        MeteredBuyers buyers = new MeteredBuyers(TestEnvironment.databaseUrl());
        MeteredBuyers.Buyer buyer = buyers.subscribe(1, Duration.ofMinutes(8 * 60 + 30), Duration.ofMinutes(140))
                .getFirst();
        try {
            Map<Instant, Integer> expected = buyer.expectedHours(Instant.now());
            Instant newest = Collections.max(expected.keySet());
            // AWS already has the newest hour, with one AKU-hour more than the ledger will say.
            UsageRecord other = new UsageRecord(buyer.account(), buyer.licenseArn(), null, MeteringRun.DIMENSION,
                    newest, expected.get(newest) + 1);
            assertThat(meter.send(List.of(other)).get(other).meteringRecordId()).isNotNull();

            Instant before = Instant.now();
            run.run();
            Instant after = Instant.now();
            run.run();

            Map<Instant, MeteredBuyers.Ledgered> ledger = buyers.ledger(buyer);
            assertThat(ledger.keySet()).containsAll(expected.keySet());
            int expired = 0;
            for (Instant hour : expected.keySet()) {
                MeteredBuyers.Ledgered row = ledger.get(hour);
                assertThat(row.quantity()).as("quantity of " + hour).isEqualTo(expected.get(hour));
                if (!hour.plus(MeteringRun.AWS_WINDOW).isAfter(before)) {
                    expired++;
                    assertThat(row.state()).as(hour + " is past the window").isEqualTo("FAILED");
                    assertThat(row.lastError()).isEqualTo(MeteringRun.EXPIRED);
                    assertThat(row.attempts()).as("never sent").isZero();
                } else if (hour.equals(newest)) {
                    assertThat(row.state()).isEqualTo("DUPLICATE");
                    assertThat(row.attempts()).as("not sent again by the second run").isEqualTo(1);
                } else if (hour.plus(MeteringRun.AWS_WINDOW).isAfter(after)) {
                    assertThat(row.state()).as(hour + " is within the window").isEqualTo("ACCEPTED");
                }
            }
            assertThat(expired).as("hours linked 8.5 hours ago that are past the window").isGreaterThanOrEqualTo(2);

            List<JsonNode> received = buyers.received(buyer);
            assertThat(received).noneMatch(r -> !Instant.parse(r.get("timestamp").asString())
                    .plus(MeteringRun.AWS_WINDOW).isAfter(before));
            JsonNode kept = received.stream().filter(r -> Instant.parse(r.get("timestamp").asString()).equals(newest))
                    .findFirst().orElseThrow();
            assertThat(kept.get("quantity").asInt()).as("AWS keeps the quantity it had").isEqualTo(expected.get(newest) + 1);
        } finally {
            buyers.forget(buyer);
        }
    }

    @Test
    void anEndedAgreementsLastHourIsSentRightAwayUpToItsEnd() throws Exception {
        MeteredBuyers buyers = new MeteredBuyers(TestEnvironment.databaseUrl());
        MeteredBuyers.Buyer buyer = buyers.subscribe(1, Duration.ofMinutes(150), Duration.ofMinutes(140)).getFirst();
        try {
            Instant endedAt = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofMinutes(20));
            MeteredBuyers.Buyer ended = buyers.end(buyer, endedAt);

            run.run();

            Map<Instant, Integer> expected = ended.expectedHours(Instant.now());
            assertThat(expected).containsKey(endedAt.truncatedTo(ChronoUnit.HOURS));
            Map<Instant, MeteredBuyers.Ledgered> ledger = buyers.ledger(ended);
            assertThat(ledger.keySet()).as("every hour up to the end, the last one whether or not it is over")
                    .isEqualTo(expected.keySet());
            expected.forEach((hour, quantity) -> {
                assertThat(ledger.get(hour).quantity()).as("quantity of " + hour).isEqualTo(quantity);
                assertThat(ledger.get(hour).state()).isEqualTo("ACCEPTED");
            });
            assertThat(buyers.received(ended)).hasSameSizeAs(expected.keySet());
        } finally {
            buyers.forget(buyer);
        }
    }
}
