package dev.keel.awsemulator;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.BiConsumer;
import java.util.concurrent.ThreadLocalRandom;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * AWS Marketplace Metering (ResolveCustomer, BatchMeterUsage, MeterUsage) and Entitlement
 * (GetEntitlements), in memory. Customers and their entitlements are seeded through the admin API;
 * accepted meter records can be read back through it.
 */
final class Marketplace {

    static final String METERING_PREFIX = "AWSMPMeteringService";
    static final String ENTITLEMENT_PREFIX = "AWSMPEntitlementService";

    /** AWS accepts usage up to 6 hours after the event. */
    static final Duration METERING_WINDOW = Duration.ofHours(6);
    /** Tolerated clock skew for timestamps in the future. */
    static final Duration FUTURE_SKEW = Duration.ofMinutes(5);
    private static final int BATCH_LIMIT = 25;
    /** The account that owns licences the emulator issues: the seller's, in AWS License Manager. */
    private static final String SELLER_ACCOUNT = "123456789012";
    private static final int ENTITLEMENT_PAGE_LIMIT = 25;
    private static final Set<String> ENTITLEMENT_FILTERS =
            Set.of("CUSTOMER_IDENTIFIER", "DIMENSION", "CUSTOMER_AWS_ACCOUNT_ID", "LICENSE_ARN");

    private final Clock clock;
    /** Where purchases and cancellations send their agreement events; null: nowhere. */
    private final AgreementEventSender agreementEvents;

    private record Customer(String registrationToken, String customerIdentifier, String customerAWSAccountId,
                            String productCode, String licenseArn, boolean subscribed) {
    }

    private record Entitlement(String productCode, String customerIdentifier, String customerAWSAccountId,
                               String licenseArn, String dimension, JsonNode value, Instant expirationDate) {
    }

    /** An accepted usage record. */
    private record MeterRecord(String meteringRecordId, String operation, String productCode, String customerIdentifier,
                               String customerAWSAccountId, String dimension, int quantity, Instant timestamp,
                               Instant receivedAt) {
    }

    private final Map<String, Customer> customersByToken = new LinkedHashMap<>();
    private final List<Entitlement> entitlements = new ArrayList<>();
    private final List<MeterRecord> records = new ArrayList<>();
    /** (product, customer, dimension, hour) → the accepted record, to spot duplicates. */
    private final Map<String, MeterRecord> byHour = new HashMap<>();
    /** BatchMeterUsage: MeteringRecordId → the licence its record named (2026 integration), and how often it came. */
    private final Map<String, String> licences = new HashMap<>();
    private final Map<String, Integer> receipts = new HashMap<>();
    /** MeterUsage ClientToken → (request, record). */
    private final Map<String, Map.Entry<JsonNode, MeterRecord>> meterUsageTokens = new HashMap<>();
    /** Minted registration token → when AWS stops resolving it. */
    private final Map<String, Instant> tokenExpiries = new HashMap<>();

    Marketplace(Clock clock, AgreementEventSender agreementEvents) {
        this.clock = clock;
        this.agreementEvents = agreementEvents;
    }

    synchronized void reset() {
        customersByToken.clear();
        entitlements.clear();
        records.clear();
        byHour.clear();
        meterUsageTokens.clear();
        licences.clear();
        receipts.clear();
        tokenExpiries.clear();
    }

    // ------------------------------------------------------------------ Metering

    synchronized JsonNode metering(String operation, JsonNode request, AwsApiEmulator.Caller caller) {
        return switch (operation) {
            case "ResolveCustomer" -> resolveCustomer(request);
            case "BatchMeterUsage" -> batchMeterUsage(request);
            case "MeterUsage" -> meterUsage(request, caller);
            default -> throw new AwsError("UnknownOperationException", "Marketplace Metering operation " + operation
                    + " is not emulated by Keel's AWS API emulator");
        };
    }

    private JsonNode resolveCustomer(JsonNode request) {
        String token = Json.string(request, "RegistrationToken");
        if (token == null || token.isEmpty()) {
            throw AwsError.validation("1 validation error detected: Value null at 'registrationToken' failed to satisfy"
                    + " constraint: Member must not be null");
        }
        Customer customer = customersByToken.get(token);
        if (customer == null) {
            throw new AwsError("InvalidTokenException", "Registration token is invalid");
        }
        refuseExpired(token);
        ObjectNode out = Json.object();
        out.put("CustomerIdentifier", customer.customerIdentifier());
        out.put("ProductCode", customer.productCode());
        out.put("CustomerAWSAccountId", customer.customerAWSAccountId());
        if (customer.licenseArn() != null) {
            out.put("LicenseArn", customer.licenseArn());
        }
        return out;
    }

    private JsonNode batchMeterUsage(JsonNode request) {
        List<JsonNode> usage = Json.list(request, "UsageRecords");
        if (usage.size() > BATCH_LIMIT) {
            throw AwsError.validation("1 validation error detected: Value at 'usageRecords' failed to satisfy"
                    + " constraint: Member must have length less than or equal to " + BATCH_LIMIT);
        }
        String productCode = Json.string(request, "ProductCode");
        if (productCode != null && !knownProduct(productCode)) {
            throw new AwsError("InvalidProductCodeException", "Product code " + productCode + " is not valid");
        }
        Instant now = clock.instant();
        List<JsonNode> inWindow = new ArrayList<>();
        List<JsonNode> outOfWindow = new ArrayList<>();
        for (JsonNode record : usage) {
            Instant timestamp = Json.timestamp(record, "Timestamp");
            if (timestamp == null) {
                throw AwsError.validation("1 validation error detected: Value null at 'usageRecords.member.timestamp'"
                        + " failed to satisfy constraint: Member must not be null");
            }
            String dimension = Json.string(record, "Dimension");
            if (dimension == null || dimension.isEmpty()) {
                throw AwsError.validation("1 validation error detected: Value null at 'usageRecords.member.dimension'"
                        + " failed to satisfy constraint: Member must not be null");
            }
            Integer quantity = Json.integer(record, "Quantity");
            if (quantity != null && quantity < 0) {
                throw AwsError.validation("Quantity must not be negative");
            }
            checkAllocations(record, quantity == null ? 0 : quantity);
            String customer = Json.string(record, "CustomerIdentifier");
            String account = Json.string(record, "CustomerAWSAccountId");
            if ((customer == null) == (account == null)) {
                throw new AwsError("InvalidCustomerIdentifierException",
                        "Each usage record needs exactly one of CustomerIdentifier and CustomerAWSAccountId");
            }
            (inWindow(timestamp, now) ? inWindow : outOfWindow).add(record);
        }
        if (!usage.isEmpty() && inWindow.isEmpty()) {
            throw new AwsError("TimestampOutOfBoundsException", "The timestamp of every usage record is outside the"
                    + " allowed window (the last " + METERING_WINDOW.toHours() + " hours)");
        }
        ArrayNode results = Json.array();
        for (JsonNode record : inWindow) {
            results.add(meter(record, productCode, now));
        }
        ObjectNode out = Json.object();
        out.set("Results", results);
        out.set("UnprocessedRecords", Json.arrayOf(outOfWindow, JsonNode::deepCopy));
        return out;
    }

    private ObjectNode meter(JsonNode record, String productCode, Instant now) {
        ObjectNode result = Json.object();
        result.set("UsageRecord", record.deepCopy());
        String customerId = Json.string(record, "CustomerIdentifier");
        String accountId = Json.string(record, "CustomerAWSAccountId");
        Customer customer = customersByToken.values().stream()
                .filter(c -> productCode == null || c.productCode().equals(productCode))
                .filter(c -> customerId != null ? c.customerIdentifier().equals(customerId)
                        : c.customerAWSAccountId().equals(accountId))
                .filter(c -> licensedBy(c, record))
                .reduce((first, later) -> later) // the latest seeding wins
                .orElse(null);
        if (customer == null || !customer.subscribed()) {
            result.put("Status", "CustomerNotSubscribed");
            return result;
        }
        String dimension = Json.string(record, "Dimension");
        Integer quantityIn = Json.integer(record, "Quantity");
        int quantity = quantityIn == null ? 0 : quantityIn;
        Instant timestamp = Json.timestamp(record, "Timestamp");
        String key = customer.productCode() + "|" + customer.customerIdentifier() + "|" + dimension + "|"
                + timestamp.truncatedTo(ChronoUnit.HOURS);
        MeterRecord earlier = byHour.get(key);
        if (earlier != null) {
            if (earlier.quantity() == quantity) {
                // an identical record again: idempotent, AWS answers the earlier result
                result.put("MeteringRecordId", earlier.meteringRecordId());
                result.put("Status", "Success");
                received(earlier, record);
            } else {
                result.put("Status", "DuplicateRecord");
            }
            return result;
        }
        MeterRecord accepted = new MeterRecord(UUID.randomUUID().toString(), "BatchMeterUsage", customer.productCode(),
                customer.customerIdentifier(), customer.customerAWSAccountId(), dimension, quantity, timestamp, now);
        records.add(accepted);
        byHour.put(key, accepted);
        received(accepted, record);
        result.put("MeteringRecordId", accepted.meteringRecordId());
        result.put("Status", "Success");
        return result;
    }

    /** A record that names a licence (2026 integration) counts only against the buyer holding that licence. */
    private static boolean licensedBy(Customer customer, JsonNode record) {
        String licenseArn = Json.string(record, "LicenseArn");
        return licenseArn == null || licenseArn.equals(customer.licenseArn());
    }

    /** Keeps the licence a record named and counts how often it came: an identical resend is accepted, and seen. */
    private void received(MeterRecord accepted, JsonNode record) {
        String licenseArn = Json.string(record, "LicenseArn");
        if (licenseArn != null) {
            licences.put(accepted.meteringRecordId(), licenseArn);
        }
        receipts.merge(accepted.meteringRecordId(), 1, Integer::sum);
    }

    private JsonNode meterUsage(JsonNode request, AwsApiEmulator.Caller caller) {
        String productCode = Json.requiredString(request, "ProductCode", "ValidationException");
        Instant timestamp = Json.timestamp(request, "Timestamp");
        String dimension = Json.requiredString(request, "UsageDimension", "ValidationException");
        if (timestamp == null) {
            throw AwsError.validation("The parameter Timestamp is required.");
        }
        Integer quantityIn = Json.integer(request, "UsageQuantity");
        int quantity = quantityIn == null ? 0 : quantityIn;
        if (quantity < 0) {
            throw AwsError.validation("UsageQuantity must not be negative");
        }
        checkAllocations(request, quantity);
        if (!knownProduct(productCode)) {
            throw new AwsError("InvalidProductCodeException", "Product code " + productCode + " is not valid");
        }
        Instant now = clock.instant();
        String clientToken = Json.string(request, "ClientToken");
        ObjectNode withoutToken = (ObjectNode) request.deepCopy();
        withoutToken.remove("ClientToken");
        withoutToken.remove("DryRun");
        if (clientToken != null && meterUsageTokens.containsKey(clientToken)) {
            Map.Entry<JsonNode, MeterRecord> earlier = meterUsageTokens.get(clientToken);
            if (!earlier.getKey().equals(withoutToken)) {
                throw new AwsError("IdempotencyConflictException",
                        "ClientToken " + clientToken + " was already used with different parameters");
            }
            return Json.object().put("MeteringRecordId", earlier.getValue().meteringRecordId());
        }
        if (!inWindow(timestamp, now)) {
            throw new AwsError("TimestampOutOfBoundsException", "The timestamp is outside the allowed window (the last "
                    + METERING_WINDOW.toHours() + " hours)");
        }
        // MeterUsage meters the calling account's own usage (AMI and container products).
        String key = productCode + "|account:" + caller.accountId() + "|" + dimension + "|"
                + timestamp.truncatedTo(ChronoUnit.HOURS);
        MeterRecord earlier = byHour.get(key);
        if (earlier != null) {
            if (earlier.quantity() == quantity) {
                return Json.object().put("MeteringRecordId", earlier.meteringRecordId());
            }
            throw new AwsError("DuplicateRequestException",
                    "A usage record for this dimension and hour was already metered with a different quantity");
        }
        MeterRecord accepted = new MeterRecord(UUID.randomUUID().toString(), "MeterUsage", productCode, null,
                caller.accountId(), dimension, quantity, timestamp, now);
        Boolean dryRun = Json.bool(request, "DryRun");
        if (dryRun == null || !dryRun) {
            records.add(accepted);
            byHour.put(key, accepted);
            if (clientToken != null) {
                meterUsageTokens.put(clientToken, Map.entry(withoutToken, accepted));
            }
        }
        return Json.object().put("MeteringRecordId", accepted.meteringRecordId());
    }

    private static void checkAllocations(JsonNode record, int quantity) {
        List<JsonNode> allocations = Json.list(record, "UsageAllocations");
        if (allocations.isEmpty()) {
            return;
        }
        long sum = 0;
        for (JsonNode allocation : allocations) {
            Integer allocated = Json.integer(allocation, "AllocatedUsageQuantity");
            sum += allocated == null ? 0 : allocated;
        }
        if (sum != quantity) {
            throw new AwsError("InvalidUsageAllocationsException",
                    "The sum of AllocatedUsageQuantity (" + sum + ") must equal the usage quantity (" + quantity + ")");
        }
    }

    private static boolean inWindow(Instant timestamp, Instant now) {
        return timestamp.isAfter(now.minus(METERING_WINDOW)) && !timestamp.isAfter(now.plus(FUTURE_SKEW));
    }

    private boolean knownProduct(String productCode) {
        return customersByToken.values().stream().anyMatch(c -> c.productCode().equals(productCode))
                || entitlements.stream().anyMatch(e -> e.productCode().equals(productCode));
    }

    // ------------------------------------------------------------------ Entitlement

    synchronized JsonNode entitlement(String operation, JsonNode request) {
        if (!"GetEntitlements".equals(operation)) {
            throw new AwsError("UnknownOperationException", "Marketplace Entitlement operation " + operation
                    + " is not emulated by Keel's AWS API emulator");
        }
        String productCode = Json.string(request, "ProductCode");
        if (productCode == null || productCode.isEmpty()) {
            throw new AwsError("InvalidParameterException", "ProductCode is required");
        }
        JsonNode filterNode = Json.struct(request, "Filter");
        Map<String, List<String>> filter = new HashMap<>();
        if (!filterNode.isMissingNode()) {
            for (String name : filterNode.propertyNames()) {
                if (!ENTITLEMENT_FILTERS.contains(name)) {
                    throw new AwsError("InvalidParameterException", "Invalid filter " + name + "; valid filters: "
                            + ENTITLEMENT_FILTERS.stream().sorted().toList());
                }
                filter.put(name, Json.strings(filterNode, name));
            }
        }
        Integer maxResults = Json.integer(request, "MaxResults");
        if (maxResults != null && (maxResults < 1 || maxResults > ENTITLEMENT_PAGE_LIMIT)) {
            throw new AwsError("InvalidParameterException", "MaxResults must be between 1 and " + ENTITLEMENT_PAGE_LIMIT);
        }
        Instant now = clock.instant();
        List<Entitlement> matching = entitlements.stream()
                .filter(e -> e.productCode().equals(productCode))
                .filter(e -> e.expirationDate() == null || e.expirationDate().isAfter(now))
                .filter(e -> matches(filter, "CUSTOMER_IDENTIFIER", e.customerIdentifier()))
                .filter(e -> matches(filter, "DIMENSION", e.dimension()))
                .filter(e -> matches(filter, "CUSTOMER_AWS_ACCOUNT_ID", e.customerAWSAccountId()))
                .filter(e -> matches(filter, "LICENSE_ARN", e.licenseArn()))
                .toList();
        int start = 0;
        String nextToken = Json.string(request, "NextToken");
        if (nextToken != null) {
            try {
                start = Integer.parseInt(new String(Base64.getDecoder().decode(nextToken), StandardCharsets.UTF_8));
            } catch (IllegalArgumentException e) {
                throw new AwsError("InvalidParameterException", "Invalid NextToken");
            }
        }
        int end = Math.min(matching.size(), start + (maxResults == null ? ENTITLEMENT_PAGE_LIMIT : maxResults));
        ObjectNode out = Json.object();
        out.set("Entitlements", Json.arrayOf(matching.subList(Math.min(start, matching.size()), end), this::render));
        if (end < matching.size()) {
            out.put("NextToken", Base64.getEncoder().encodeToString(String.valueOf(end).getBytes(StandardCharsets.UTF_8)));
        }
        return out;
    }

    private static boolean matches(Map<String, List<String>> filter, String name, String value) {
        List<String> values = filter.get(name);
        return values == null || values.contains(value);
    }

    private ObjectNode render(Entitlement entitlement) {
        ObjectNode out = Json.object();
        out.put("ProductCode", entitlement.productCode());
        out.put("Dimension", entitlement.dimension());
        out.put("CustomerIdentifier", entitlement.customerIdentifier());
        out.put("CustomerAWSAccountId", entitlement.customerAWSAccountId());
        if (entitlement.licenseArn() != null) {
            out.put("LicenseArn", entitlement.licenseArn());
        }
        ObjectNode value = out.putObject("Value");
        JsonNode v = entitlement.value();
        if (v.isIntegralNumber()) {
            value.put("IntegerValue", v.intValue());
        } else if (v.isNumber()) {
            value.put("DoubleValue", v.doubleValue());
        } else if (v.isBoolean()) {
            value.put("BooleanValue", v.booleanValue());
        } else {
            value.put("StringValue", v.asString());
        }
        if (entitlement.expirationDate() != null) {
            out.put("ExpirationDate", Json.epochSeconds(entitlement.expirationDate()));
        }
        return out;
    }

    // ------------------------------------------------------------------ admin

    /**
     * Seeds (or replaces) a customer: {@code {"registrationToken", "productCode", "customerIdentifier"?,
     * "customerAWSAccountId"?, "licenseArn"?, "subscribed"? (true), "entitlements"?: [{"dimension", "value",
     * "expirationDate"? (ISO-8601)}]}}. Replacing a customer replaces its entitlements for that product.
     */
    synchronized JsonNode seedCustomer(JsonNode body) {
        String token = adminString(body, "registrationToken", true);
        String productCode = adminString(body, "productCode", true);
        String customerId = adminString(body, "customerIdentifier", false);
        String account = adminString(body, "customerAWSAccountId", false);
        if (customerId == null) {
            customerId = "cust-" + Long.toString(ThreadLocalRandom.current().nextLong(1L << 40, 1L << 50), 36);
        }
        if (account == null) {
            account = String.format("%012d", ThreadLocalRandom.current().nextLong(100_000_000_000L, 999_999_999_999L));
        }
        JsonNode subscribedNode = body.get("subscribed");
        if (subscribedNode != null && !subscribedNode.isBoolean()) {
            throw new IllegalArgumentException("subscribed must be a boolean");
        }
        boolean subscribed = subscribedNode == null || subscribedNode.booleanValue();
        String licenseArn = adminString(body, "licenseArn", false);
        List<Entitlement> seeded = new ArrayList<>();
        JsonNode list = body.get("entitlements");
        if (list != null && !list.isNull()) {
            if (!list.isArray()) {
                throw new IllegalArgumentException("entitlements must be a list");
            }
            for (JsonNode item : list) {
                String dimension = adminString(item, "dimension", true);
                JsonNode value = item.get("value");
                if (value == null || !value.isValueNode() || value.isNull()) {
                    throw new IllegalArgumentException("entitlement " + dimension
                            + " needs a value (integer, number, boolean or string)");
                }
                Instant expires = adminInstant(item, "expirationDate");
                seeded.add(new Entitlement(productCode, customerId, account, licenseArn, dimension, value.deepCopy(), expires));
            }
        }
        String finalCustomerId = customerId;
        entitlements.removeIf(e -> e.productCode().equals(productCode) && e.customerIdentifier().equals(finalCustomerId));
        entitlements.addAll(seeded);
        Customer customer = new Customer(token, customerId, account, productCode, licenseArn, subscribed);
        customersByToken.put(token, customer);
        if (subscribed) {
            announce(customer, AgreementEventSender::purchased);
        }
        return render(customer);
    }

    /**
     * The buyer of {@code {"registrationToken"}} cancels: ResolveCustomer no longer resolves its token, and the
     * agreement's end goes to the seller's queue.
     */
    synchronized JsonNode cancelCustomer(JsonNode body) {
        String token = adminString(body, "registrationToken", true);
        Customer customer = customersByToken.get(token);
        if (customer == null) {
            throw new IllegalArgumentException("no customer with registrationToken " + token);
        }
        Customer cancelled = new Customer(customer.registrationToken(), customer.customerIdentifier(),
                customer.customerAWSAccountId(), customer.productCode(), customer.licenseArn(), false);
        customersByToken.put(token, cancelled);
        announce(cancelled, AgreementEventSender::cancelled);
        return render(cancelled);
    }

    private void announce(Customer customer, BiConsumer<AgreementEventSender, AgreementEventSender.Buyer> event) {
        if (agreementEvents != null) {
            event.accept(agreementEvents, new AgreementEventSender.Buyer(customer.productCode(),
                    customer.customerIdentifier(), customer.customerAWSAccountId(), customer.licenseArn()));
        }
    }

    /**
     * Mints a registration token for a new buyer, as a subscription on AWS Marketplace would: {@code {"productCode",
     * "entitlements"?, "expiresAt"? (ISO-8601)}} gets a random token, a new account id and a licence ARN, and answers
     * the customer (see {@link #seedCustomer}). AWS does not publish how long a token lives; {@code expiresAt} makes
     * ResolveCustomer answer ExpiredTokenException from then on.
     */
    synchronized JsonNode mintRegistration(JsonNode body) {
        Instant expires = adminInstant(body, "expiresAt");
        ObjectNode customer = Json.object();
        customer.put("registrationToken", randomHex(48));
        customer.set("productCode", body.get("productCode"));
        customer.put("licenseArn", "arn:aws:license-manager::" + SELLER_ACCOUNT + ":license:l-" + randomHex(32));
        if (body.has("entitlements")) {
            customer.set("entitlements", body.get("entitlements"));
        }
        JsonNode minted = seedCustomer(customer);
        if (expires != null) {
            tokenExpiries.put(minted.get("registrationToken").stringValue(), expires);
        }
        return minted;
    }

    private void refuseExpired(String token) {
        Instant expires = tokenExpiries.get(token);
        if (expires != null && !clock.instant().isBefore(expires)) {
            throw new AwsError("ExpiredTokenException", "Registration token has expired");
        }
    }

    private static String randomHex(int digits) {
        StringBuilder out = new StringBuilder(digits);
        ThreadLocalRandom random = ThreadLocalRandom.current();
        while (out.length() < digits) {
            out.append(Character.forDigit(random.nextInt(16), 16));
        }
        return out.toString();
    }

    synchronized JsonNode customers() {
        ObjectNode out = Json.object();
        out.set("customers", Json.arrayOf(List.copyOf(customersByToken.values()), this::render));
        return out;
    }

    private ObjectNode render(Customer customer) {
        ObjectNode out = Json.object();
        out.put("registrationToken", customer.registrationToken());
        out.put("customerIdentifier", customer.customerIdentifier());
        out.put("customerAWSAccountId", customer.customerAWSAccountId());
        out.put("productCode", customer.productCode());
        if (customer.licenseArn() != null) {
            out.put("licenseArn", customer.licenseArn());
        }
        out.put("subscribed", customer.subscribed());
        ArrayNode list = out.putArray("entitlements");
        for (Entitlement e : entitlements) {
            if (e.productCode().equals(customer.productCode()) && e.customerIdentifier().equals(customer.customerIdentifier())) {
                ObjectNode item = list.addObject();
                item.put("dimension", e.dimension());
                item.set("value", e.value());
                if (e.expirationDate() != null) {
                    item.put("expirationDate", e.expirationDate().toString());
                }
            }
        }
        return out;
    }

    synchronized JsonNode meterRecords(String productCode, String customerIdentifier) {
        ArrayNode list = Json.array();
        for (MeterRecord r : records) {
            if ((productCode == null || productCode.equals(r.productCode()))
                    && (customerIdentifier == null || customerIdentifier.equals(r.customerIdentifier()))) {
                ObjectNode item = list.addObject();
                item.put("meteringRecordId", r.meteringRecordId());
                item.put("operation", r.operation());
                item.put("productCode", r.productCode());
                item.put("customerIdentifier", r.customerIdentifier());
                item.put("customerAWSAccountId", r.customerAWSAccountId());
                item.put("dimension", r.dimension());
                item.put("quantity", r.quantity());
                item.put("timestamp", r.timestamp().toString());
                item.put("receivedAt", r.receivedAt().toString());
                describeReceipt(item, r);
            }
        }
        return Json.object().set("records", list);
    }

    private void describeReceipt(ObjectNode item, MeterRecord record) {
        String licenseArn = licences.get(record.meteringRecordId());
        if (licenseArn != null) {
            item.put("licenseArn", licenseArn);
        }
        item.put("receipts", receipts.getOrDefault(record.meteringRecordId(), 1));
    }

    private static Instant adminInstant(JsonNode body, String member) {
        String value = adminString(body, member, false);
        try {
            return value == null ? null : Instant.parse(value);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(member + " must be ISO-8601, like 2030-01-01T00:00:00Z");
        }
    }

    private static String adminString(JsonNode body, String member, boolean required) {
        JsonNode node = body.get(member);
        if (node == null || node.isNull()) {
            if (required) {
                throw new IllegalArgumentException(member + " is required");
            }
            return null;
        }
        if (!node.isString() || node.stringValue().isBlank()) {
            throw new IllegalArgumentException(member + " must be a non-empty string");
        }
        return node.stringValue();
    }
}
