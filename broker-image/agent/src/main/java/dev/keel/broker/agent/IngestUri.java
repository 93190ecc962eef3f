package dev.keel.broker.agent;

import java.net.URI;

/** Addresses on the control plane's ingest API: the node spec's {@code ingestUrl} (ends with {@code /ingest}) + path. */
public final class IngestUri {
    private IngestUri() {
    }

    /** {@code path} starts with {@code /v1/}. */
    public static URI of(URI ingestUrl, String path) {
        String base = ingestUrl.toString();
        if (base.endsWith("/")) {
            base = base.substring(0, base.length() - 1);
        }
        return URI.create(base + path);
    }
}
