package dev.keel.controlplane;

import java.util.Arrays;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

@SpringBootApplication
public class KeelApplication {
    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals(DatabaseMigration.COMMAND)) {
            System.exit(DatabaseMigration.run(Arrays.copyOfRange(args, 1, args.length)));
        }
        SpringApplication.run(KeelApplication.class, args);
    }
}
