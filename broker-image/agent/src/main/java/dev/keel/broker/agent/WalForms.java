package dev.keel.broker.agent;

import java.util.List;

/**
 * Which upstream AutoMQ release accepts which {@code s3.wal.path} form: the agent refuses a WAL type the pinned
 * broker cannot run rather than render a config the broker rejects at start. Every row cites the upstream file
 * (github.com/AutoMQ/automq) that decides it; see broker-image/README.md for the table with commits.
 *
 * <ul>
 *   <li>{@code s3.wal.path} in the {@code <id>@<uri>} form, with {@code s3.data.buckets}/{@code s3.ops.buckets},
 *       exists from 1.2.0 ({@code core/src/main/java/kafka/automq/AutoMQConfig.java} at tag 1.2.0). Before 1.2.0
 *       (1.0.x, 1.1.x) the WAL was a plain path and buckets were {@code s3.bucket}/{@code s3.region}: not rendered.</li>
 *   <li>S3 WAL ({@code 0@s3://...}): {@code DefaultS3Client.buildWAL()} case "s3" from 1.2.0 through 1.4.x
 *       ({@code core/src/main/scala/kafka/log/stream/s3/DefaultS3Client.java}), then
 *       {@code core/src/main/scala/kafka/log/stream/s3/wal/DefaultWalFactory.java} from 1.5.0 (the only protocol it
 *       accepts: anything else is "Unsupported WAL protocol").</li>
 *   <li>Block-device WAL ({@code 0@file:///dev/<dev>?capacity=&iops=&iodepth=&iobandwidth=}) and file WAL
 *       ({@code 0@file:///<path>?capacity=}): {@code buildWAL()} case "file" →
 *       {@code s3stream/.../wal/impl/block/BlockWALService.java} from 1.2.0 to 1.4.1; removed from the open-source
 *       code in 1.5.0 ({@code BlockWALService} is gone, {@code DefaultWalFactory} refuses "file").</li>
 * </ul>
 */
public final class WalForms {

    /** The WAL forms the agent can render. */
    public enum Form {
        /** {@code 0@s3://<data bucket>?region=…}: WAL objects in S3. */
        S3_OBJECT,
        /** {@code 0@file:///dev/<device>?capacity=…&iops=…}: raw block device (EBS). */
        BLOCK_DEVICE,
        /** {@code 0@file:///<path>?capacity=…}: a preallocated file (here: on the NFSv4.1 mount of FSx for ONTAP). */
        FILE
    }

    /** One row: a form is accepted by upstream releases in [from, until) (until null = still accepted). */
    public record Row(Form form, Version from, Version until, String source) {
        boolean accepts(Version v) {
            return v.compareTo(from) >= 0 && (until == null || v.compareTo(until) < 0);
        }

        String range() {
            return until == null ? from + " and later" : from + " up to (not including) " + until;
        }
    }

    public static final List<Row> TABLE = List.of(
            new Row(Form.S3_OBJECT, Version.of(1, 2, 0), null,
                    "DefaultS3Client.buildWAL case \"s3\" (1.2.0-1.4.1); DefaultWalFactory case \"S3\" (1.5.0+)"),
            new Row(Form.BLOCK_DEVICE, Version.of(1, 2, 0), Version.of(1, 5, 0),
                    "DefaultS3Client.buildWAL case \"file\" -> BlockWALService.builder(IdURI) (1.2.0-1.4.1)"),
            new Row(Form.FILE, Version.of(1, 2, 0), Version.of(1, 5, 0),
                    "BlockWALService on a file path (WALChannel: file channel, direct IO when available) (1.2.0-1.4.1)"));

    private WalForms() {
    }

    public static Form formFor(WalType type) {
        return switch (type) {
            case S3 -> Form.S3_OBJECT;
            case EBS -> Form.BLOCK_DEVICE;
            case FSWAL -> Form.FILE;
        };
    }

    public static boolean supports(Version version, Form form) {
        return TABLE.stream().filter(r -> r.form() == form).anyMatch(r -> r.accepts(version));
    }

    /** Refuses a WAL type the broker version cannot run, with the versions that can. */
    public static Form check(WalType type, Version version) {
        Form form = formFor(type);
        Row row = TABLE.stream().filter(r -> r.form() == form).findFirst().orElseThrow();
        if (!row.accepts(version)) {
            String hint = switch (type) {
                case EBS, FSWAL -> " Open-source AutoMQ removed the block/file WAL in 1.5.0 (only the S3 WAL remains);"
                        + " pin a 1.2.0-1.4.x broker for " + type + " or choose walType S3.";
                case S3 -> " The bucket-URI configuration (s3.data.buckets, s3.wal.path) starts at 1.2.0.";
            };
            throw new SpecException("walType", "AutoMQ " + version + " cannot run the " + type + " WAL ("
                    + form + " form is accepted by " + row.range() + ")." + hint);
        }
        return form;
    }
}
