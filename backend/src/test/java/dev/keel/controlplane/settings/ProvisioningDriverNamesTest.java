package dev.keel.controlplane.settings;

import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URI;
import java.net.URL;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.ClassPathScanningCandidateComponentProvider;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.type.filter.AnnotationTypeFilter;
import org.springframework.util.ClassUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A driver's name is written where its bean is registered ({@code @ConditionalOnProperty} on
 * {@code keel.provisioning.driver}) and in its jar's list of drivers, which the start-up check reads: a driver
 * renamed, added or removed in one place and not the other would let a control plane start with no driver bean, or
 * refuse one it has. Each list must name exactly the drivers its own jar's code registers.
 */
class ProvisioningDriverNamesTest {

    private static final String DRIVER_SETTING = "keel.provisioning.driver";

    @Test
    void eachJarListsExactlyTheDriversItsCodeRegisters() throws Exception {
        Map<String, Set<String>> registered = registeredByLocation();
        Map<String, Set<String>> listed = listedByLocation();

        assertThat(registered).as("drivers registered in code, by the jar or directory they are in")
                .isNotEmpty().containsKey(location(ProductionSettings.class));
        assertThat(listed).as("the lists of " + ProductionSettings.DRIVERS + ", by the jar or directory they are in")
                .isEqualTo(registered);
        assertThat(registered.get(location(ProductionSettings.class))).as("the shipped drivers").contains("aws");
    }

    private static Map<String, Set<String>> registeredByLocation() throws Exception {
        ClassPathScanningCandidateComponentProvider scanner = new ClassPathScanningCandidateComponentProvider(false);
        scanner.addIncludeFilter(new AnnotationTypeFilter(Configuration.class));
        scanner.addIncludeFilter(new AnnotationTypeFilter(AutoConfiguration.class));
        Map<String, Set<String>> registered = new TreeMap<>();
        for (BeanDefinition candidate : scanner.findCandidateComponents("dev.keel")) {
            Class<?> type = ClassUtils.forName(candidate.getBeanClassName(), ClassUtils.getDefaultClassLoader());
            for (Method method : type.getDeclaredMethods()) {
                ConditionalOnProperty condition = method.getAnnotation(ConditionalOnProperty.class);
                if (condition != null && Set.of(condition.name()).contains(DRIVER_SETTING)) {
                    registered.computeIfAbsent(location(type), l -> new TreeSet<>()).add(condition.havingValue());
                }
            }
        }
        return registered;
    }

    private static Map<String, Set<String>> listedByLocation() throws IOException {
        Map<String, Set<String>> listed = new TreeMap<>();
        for (URL list : Collections.list(ClassUtils.getDefaultClassLoader().getResources(ProductionSettings.DRIVERS))) {
            String url = list.toString();
            String root = url.substring(0, url.length() - ProductionSettings.DRIVERS.length());
            listed.put(normalised(root), ProductionSettings.driversIn(list));
        }
        return listed;
    }

    private static String location(Class<?> type) {
        return normalised(type.getProtectionDomain().getCodeSource().getLocation().toString());
    }

    /** A jar's entry root ({@code jar:file:…!/}) and its code source ({@code file:…}) name the same place. */
    private static String normalised(String url) {
        String path = url.startsWith("jar:") ? url.substring(4, url.length() - 2) : url;
        return URI.create(path).normalize().toString().replaceAll("/$", "");
    }
}
