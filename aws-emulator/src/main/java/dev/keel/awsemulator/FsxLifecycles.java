package dev.keel.awsemulator;

import java.time.Duration;

/**
 * How long each FSx lifecycle takes in the emulator. {@link #quick} keeps tests fast (a create, and everything else);
 * {@link #realistic()} is what AWS takes for a Multi-AZ ONTAP file system and its SVM and volume, which
 * {@link #scaled} shortens by a factor so a test or benchmark sees their proportions in seconds.
 */
public record FsxLifecycles(Duration fileSystemCreate, Duration fileSystemUpdate, Duration fileSystemDelete,
                     Duration svmCreate, Duration svmDelete, Duration volumeCreate, Duration volumeDelete) {

    public static FsxLifecycles quick(Duration create, Duration update) {
        return new FsxLifecycles(create, update, update, update, update, update, update);
    }

    /**
     * Tens of minutes for a Multi-AZ file system to be created, to change its throughput or to be deleted; minutes
     * for an SVM; about a minute for a volume.
     */
    public static FsxLifecycles realistic() {
        return new FsxLifecycles(Duration.ofMinutes(30), Duration.ofMinutes(25), Duration.ofMinutes(15),
                Duration.ofMinutes(5), Duration.ofMinutes(3), Duration.ofMinutes(1), Duration.ofMinutes(1));
    }

    public FsxLifecycles scaled(double factor) {
        return new FsxLifecycles(scale(fileSystemCreate, factor), scale(fileSystemUpdate, factor),
                scale(fileSystemDelete, factor), scale(svmCreate, factor), scale(svmDelete, factor),
                scale(volumeCreate, factor), scale(volumeDelete, factor));
    }

    private static Duration scale(Duration duration, double factor) {
        return Duration.ofMillis(Math.round(duration.toMillis() * factor));
    }
}
