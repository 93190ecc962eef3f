package dev.keel.controlplane.tls;

import java.util.UUID;

import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

import dev.keel.controlplane.identity.Caller;
import dev.keel.controlplane.instances.Instance;
import dev.keel.controlplane.instances.Instances;
import dev.keel.controlplane.shared.PathIds;

/** The certificate clients trust an instance's brokers by: its CA's, as a PEM file. */
@RestController
class CaCertificateController {

    static final String PEM_FILE = "application/x-pem-file";

    private final Instances instances;
    private final CertificateAuthorities authorities;

    CaCertificateController(Instances instances, CertificateAuthorities authorities) {
        this.instances = instances;
        this.authorities = authorities;
    }

    @GetMapping(path = "/api/v1/instances/{instanceId:" + PathIds.UUID + "}/ca-certificate", produces = PEM_FILE)
    ResponseEntity<String> caCertificate(Caller caller, @PathVariable UUID instanceId) {
        Instance instance = instances.get(caller.organizationId(), instanceId);
        ListenerSecurityGuard.requireSecure(instance, "it has no CA, and clients connect without TLS");
        return ResponseEntity.ok()
                .header(HttpHeaders.CONTENT_DISPOSITION, "attachment; filename=\"" + instance.name() + "-ca.pem\"")
                .body(authorities.certificatePem(instance));
    }
}
