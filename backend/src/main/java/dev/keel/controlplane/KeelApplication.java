package dev.keel.controlplane;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

@SpringBootApplication
public class KeelApplication {
    public static void main(String[] args) {
        SpringApplication.run(KeelApplication.class, args);
    }
}
