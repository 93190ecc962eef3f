package dev.keel.broker.agent.access;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialAlteration;
import org.apache.kafka.clients.admin.UserScramCredentialDeletion;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.admin.UserScramCredentialsDescription;
import org.apache.kafka.common.KafkaFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SCRAM users: upserts a SCRAM-SHA-512 credential for every user the control plane sends a password for, deletes
 * the credentials of removed users, and says for each whether it exists afterwards. A user that exists without a
 * password is left alone; one that is absent without a password (deleted behind the product's back) is reported
 * absent, so that the control plane sends its password again.
 */
final class ScramUsers {
    private static final Logger LOG = LoggerFactory.getLogger(ScramUsers.class);
    static final ScramMechanism MECHANISM = ScramMechanism.SCRAM_SHA_512;
    /** Kafka's minimum for SCRAM-SHA-512, and what its own tools use. */
    static final int ITERATIONS = 4096;

    private ScramUsers() {
    }

    static List<AccessReport.UserState> apply(Admin admin, List<DesiredAccess.User> users, List<String> removed)
            throws InterruptedException {
        Map<String, Set<ScramMechanism>> existing;
        try {
            existing = AdminCalls.await(admin.describeUserScramCredentials().all()).values().stream()
                    .collect(Collectors.toMap(UserScramCredentialsDescription::name, d -> d.credentialInfos()
                            .stream().map(ScramCredentialInfo::mechanism).collect(Collectors.toSet())));
        } catch (ExecutionException | TimeoutException e) {
            String error = AdminCalls.error(e);
            LOG.warn("cannot list the SCRAM users: {}", error);
            List<AccessReport.UserState> unknown = new ArrayList<>();
            users.forEach(u -> unknown.add(new AccessReport.UserState(u.name(), false, null, error)));
            removed.forEach(name -> unknown.add(new AccessReport.UserState(name, false, null, error)));
            return unknown;
        }

        List<UserScramCredentialAlteration> alterations = new ArrayList<>();
        for (DesiredAccess.User user : users) {
            if (user.password() != null) {
                alterations.add(new UserScramCredentialUpsertion(user.name(),
                        new ScramCredentialInfo(MECHANISM, ITERATIONS), user.password()));
            }
        }
        for (String name : removed) {
            // Every mechanism it has: a credential added with a Kafka tool must not outlive the user either.
            existing.getOrDefault(name, Set.of())
                    .forEach(mechanism -> alterations.add(new UserScramCredentialDeletion(name, mechanism)));
        }
        Map<String, KafkaFuture<Void>> results = alterations.isEmpty() ? Map.of()
                : admin.alterUserScramCredentials(alterations).values();

        List<AccessReport.UserState> states = new ArrayList<>();
        for (DesiredAccess.User user : users) {
            boolean present = existing.getOrDefault(user.name(), Set.of()).contains(MECHANISM);
            if (user.password() == null) {
                states.add(new AccessReport.UserState(user.name(), present, null, null));
                continue;
            }
            String error = AdminCalls.failure(results.get(user.name()));
            if (error == null) {
                LOG.info("SCRAM user {} {} (credential version {})", user.name(), present ? "updated" : "created",
                        user.credentialVersion());
                states.add(new AccessReport.UserState(user.name(), true, user.credentialVersion(), null));
            } else {
                LOG.warn("SCRAM user {}: {}", user.name(), error);
                states.add(new AccessReport.UserState(user.name(), present, null, error));
            }
        }
        for (String name : removed) {
            if (!existing.containsKey(name)) {
                states.add(new AccessReport.UserState(name, false, null, null));
                continue;
            }
            String error = AdminCalls.failure(results.get(name));
            if (error == null) {
                LOG.info("SCRAM user {} deleted", name);
            } else {
                LOG.warn("deleting SCRAM user {}: {}", name, error);
            }
            states.add(new AccessReport.UserState(name, error != null, null, error));
        }
        return states;
    }

}
