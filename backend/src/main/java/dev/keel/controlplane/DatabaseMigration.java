package dev.keel.controlplane;

import java.util.Arrays;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * {@code java -jar keel-backend.jar migrate}: applies the pending database migrations and exits, with the settings
 * the backend itself would start with and nothing else started (no API, no workers). A deployment of several replicas
 * runs it once per upgrade (the Helm chart's Job) and has its replicas start without migrating
 * ({@code spring.flyway.enabled} in application.yaml), so that none of them races the others on the schema. No
 * {@code @Configuration}: the backend's component scan leaves it out.
 */
@ImportAutoConfiguration({DataSourceAutoConfiguration.class, FlywayAutoConfiguration.class})
class DatabaseMigration {

    static final String COMMAND = "migrate";

    /** Returns the exit code; a failed migration throws. */
    static int run(String[] args) {
        // Migrating is this command's one job, whatever the replicas' settings say.
        String[] withMigration = Arrays.copyOf(args, args.length + 1);
        withMigration[args.length] = "--spring.flyway.enabled=true";
        ConfigurableApplicationContext context = new SpringApplicationBuilder(DatabaseMigration.class)
                .web(WebApplicationType.NONE)
                .run(withMigration);
        return SpringApplication.exit(context);
    }
}
