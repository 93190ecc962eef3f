package dev.keel.controlplane.estimates;

import java.util.UUID;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.keel.controlplane.identity.Caller;
import dev.keel.controlplane.instances.Instance;
import dev.keel.controlplane.instances.Instances;
import dev.keel.controlplane.shared.PathIds;
import dev.keel.controlplane.shared.QueryFlags;

@RestController
class EstimatesController {

    private final Estimates estimates;
    private final Instances instances;

    EstimatesController(Estimates estimates, Instances instances) {
        this.estimates = estimates;
        this.instances = instances;
    }

    @PostMapping("/api/v1/estimates")
    CostEstimate estimate(@RequestBody EstimateRequest request) {
        return estimates.forSpec(request);
    }

    @GetMapping("/api/v1/instances/{instanceId:" + PathIds.UUID + "}/cost-estimate")
    CostEstimate forInstance(Caller caller, @PathVariable UUID instanceId,
                             @RequestParam(required = false) Double writeMiBps,
                             @RequestParam(required = false) Double readMiBps,
                             @RequestParam(required = false) Integer retentionHours,
                             @RequestParam(required = false) PurchaseOption purchaseOption,
                             @RequestParam(required = false) String followerFetching,
                             @RequestParam(required = false) Double compressionRatio) {
        Instance instance = instances.get(caller.organizationId(), instanceId);
        return estimates.forInstance(instance, instances.catalogOf(instance),
                new Workload(writeMiBps, readMiBps, retentionHours),
                new EstimateAssumptions(purchaseOption, QueryFlags.parse("followerFetching", followerFetching),
                        compressionRatio));
    }
}
