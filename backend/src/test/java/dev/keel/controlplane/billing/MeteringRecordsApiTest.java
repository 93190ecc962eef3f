package dev.keel.controlplane.billing;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.keel.controlplane.support.ApiClient;
import dev.keel.controlplane.support.ApiTest;
import dev.keel.controlplane.support.Database;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

class MeteringRecordsApiTest extends ApiTest {

    @Test
    void membersReadTheirLedgerNewestHourFirstByPageAndMonth() {
        ApiClient viewer = api(VIEWER);
        UUID organization = UUID.fromString(viewer.get("/organizations/me").json().get("id").asString());
        // An agreement that ended long ago: no run meters it any more, and it leaves room for the current one.
        UUID subscription = UUID.randomUUID();
        String licence = "arn:aws:license-manager::111122223333:license:l-" + subscription.toString().replace("-", "");
        Database.update("""
                INSERT INTO marketplace_subscriptions (id, organization_id, product_code, customer_aws_account_id,
                                                       license_arn, state, state_event_at, ended_at)
                VALUES (?, ?, 'keel-local-development', '111122223333', ?, 'ENDED', '1999-03-01', '1999-03-01')
                """, subscription, organization, licence);
        insert(subscription, organization, "1999-01-31T23:00:00Z", 180, "ACCEPTED", "rec-january", null);
        insert(subscription, organization, "1999-02-01T00:00:00Z", 360, "ACCEPTED", "rec-february", null);
        insert(subscription, organization, "1999-02-01T01:00:00Z", 420, "DUPLICATE", null,
                "AWS already has a record for this hour with a different quantity");

        JsonNode first = viewer.get("/billing/metering-records?month=1999-02&limit=1").json();
        assertThat(hours(first)).containsExactly("1999-02-01T01:00:00Z");
        JsonNode record = first.get("items").get(0);
        assertThat(record.get("state").asString()).isEqualTo("DUPLICATE");
        assertThat(record.get("lastError").asString()).contains("different quantity");
        assertThat(record.get("licenseArn").asString()).isEqualTo(licence);
        assertThat(record.get("customerAwsAccountId").asString()).isEqualTo("111122223333");
        assertThat(record.get("dimension").asString()).isEqualTo("aku_minutes");

        JsonNode second = viewer.get("/billing/metering-records?month=1999-02&limit=1&cursor="
                + first.get("nextCursor").asString()).json();
        assertThat(hours(second)).containsExactly("1999-02-01T00:00:00Z");
        assertThat(second.get("items").get(0).get("meteringRecordId").asString()).isEqualTo("rec-february");
        assertThat(second.get("items").get(0).get("quantity").asInt()).isEqualTo(360);
        assertThat(second.get("nextCursor").isNull()).as("the month's last page").isTrue();

        assertThat(hours(viewer.get("/billing/metering-records?month=1999-01").json()))
                .containsExactly("1999-01-31T23:00:00Z");
        assertThat(hours(viewer.get("/billing/metering-records?limit=100").json()))
                .containsSubsequence("1999-02-01T01:00:00Z", "1999-02-01T00:00:00Z", "1999-01-31T23:00:00Z");
        assertThat(api(OTHER_ORG_ADMIN).get("/billing/metering-records?month=1999-02").json().get("items"))
                .as("another organization's ledger").isEmpty();
        assertThat(viewer.get("/billing/metering-records?month=9999-12").json().get("items"))
                .as("the last month there is").isEmpty();

        Database.update("DELETE FROM metering_records WHERE subscription_id = ?", subscription);
        Database.update("DELETE FROM marketplace_subscriptions WHERE id = ?", subscription);
    }

    @Test
    void aMonthThatIsNoCalendarMonthIsRefusedOnItsField() {
        ApiClient.Response response = api(VIEWER).get("/billing/metering-records?month=1999-13");

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.json().get("errors").get(0).get("field").asString()).isEqualTo("month");
    }

    private static void insert(UUID subscription, UUID organization, String hour, int quantity, String state,
                               String meteringRecordId, String error) {
        Timestamp at = Timestamp.from(Instant.parse(hour));
        Database.update("""
                INSERT INTO metering_records (id, organization_id, subscription_id, customer_aws_account_id,
                                              license_arn, dimension, hour, quantity, state, metering_record_id,
                                              attempts, last_error, due_at, created_at, updated_at)
                SELECT ?, organization_id, id, customer_aws_account_id, license_arn, 'aku_minutes', ?, ?, ?, ?, 1, ?,
                       ?, ?, ?
                FROM marketplace_subscriptions WHERE id = ? AND organization_id = ?
                """, UUID.randomUUID(), at, quantity, state, meteringRecordId, error, at, at, at, subscription,
                organization);
    }

    private static List<String> hours(JsonNode page) {
        List<String> hours = new ArrayList<>();
        page.get("items").forEach(item -> hours.add(item.get("hour").asString()));
        return hours;
    }
}
