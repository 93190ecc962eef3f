package dev.keel.controlplane.catalog;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
class SizingCatalogController {

    private final SizingCatalogs catalogs;

    SizingCatalogController(SizingCatalogs catalogs) {
        this.catalogs = catalogs;
    }

    @GetMapping("/api/v1/sizing/catalog")
    SizingCatalog current() {
        return catalogs.current();
    }
}
