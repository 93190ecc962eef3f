package dev.keel.marketplace.customers;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads {@code LicenseArn} from ResolveCustomer's answer, which the SDK's model (2.40) predates and drops. A request
 * that wants it carries a holder in {@link #LICENSE_ARN}; every other call passes through untouched. Remove once the
 * SDK's ResolveCustomerResponse has {@code licenseArn()}.
 */
public final class LicenseArnFromWire implements ExecutionInterceptor {

    static final ExecutionAttribute<AtomicReference<String>> LICENSE_ARN = new ExecutionAttribute<>("keel.LicenseArn");

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Override
    public Optional<InputStream> modifyHttpResponseContent(Context.ModifyHttpResponse context,
                                                           ExecutionAttributes attributes) {
        AtomicReference<String> holder = attributes.getAttribute(LICENSE_ARN);
        Optional<InputStream> body = context.responseBody();
        if (holder == null || body.isEmpty() || !context.httpResponse().isSuccessful()) {
            return body;
        }
        byte[] bytes;
        try (InputStream in = body.get()) {
            bytes = in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            JsonNode licence = JSON.readTree(bytes).get("LicenseArn");
            holder.set(licence != null && licence.isString() ? licence.stringValue() : null);
        } catch (JacksonException e) {
            // Not JSON: the SDK's own unmarshalling reports it.
        }
        return Optional.of(new ByteArrayInputStream(bytes));
    }
}
