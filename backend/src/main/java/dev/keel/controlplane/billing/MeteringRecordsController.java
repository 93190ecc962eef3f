package dev.keel.controlplane.billing;

import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.regex.Pattern;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.keel.controlplane.identity.Caller;
import dev.keel.controlplane.shared.ApiException;
import dev.keel.controlplane.shared.Cursor;
import dev.keel.controlplane.shared.Page;

@RestController
class MeteringRecordsController {

    private static final Pattern MONTH = Pattern.compile("^[0-9]{4}-(0[1-9]|1[0-2])$");

    private final MeteringLedger ledger;

    MeteringRecordsController(MeteringLedger ledger) {
        this.ledger = ledger;
    }

    @GetMapping("/api/v1/billing/metering-records")
    Page<MeteringRecord> list(Caller caller, @RequestParam(required = false) String month,
                              @RequestParam(required = false) Integer limit,
                              @RequestParam(required = false) String cursor) {
        YearMonth within = month == null ? null : month(month);
        Instant from = within == null ? null : within.atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC);
        Instant to = within == null ? null : within.plusMonths(1).atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC);
        return ledger.list(caller.organizationId(), from, to, Cursor.decode(cursor), Cursor.limit(limit));
    }

    private static YearMonth month(String month) {
        if (!MONTH.matcher(month).matches()) {
            throw ApiException.validation("month", "must be a calendar month as YYYY-MM, such as 2026-11");
        }
        return YearMonth.parse(month);
    }
}
