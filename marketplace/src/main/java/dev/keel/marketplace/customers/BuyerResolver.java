package dev.keel.marketplace.customers;

import java.util.concurrent.atomic.AtomicReference;

import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.marketplacemetering.MarketplaceMeteringClient;
import software.amazon.awssdk.services.marketplacemetering.model.ExpiredTokenException;
import software.amazon.awssdk.services.marketplacemetering.model.InvalidTokenException;
import software.amazon.awssdk.services.marketplacemetering.model.ResolveCustomerResponse;

/**
 * Turns the token AWS Marketplace posts with a buyer's browser ({@code x-amzn-marketplace-token}) into the buyer, with
 * ResolveCustomer under the seller's credentials. Only buyers of {@code productCode}, the listing's, are resolved.
 */
public final class BuyerResolver {

    private final MarketplaceMeteringClient metering;
    private final String productCode;

    /** {@code metering} must carry {@link LicenseArnFromWire}, as {@code MarketplaceClients}' does. */
    public BuyerResolver(MarketplaceMeteringClient metering, String productCode) {
        this.metering = metering;
        this.productCode = productCode;
    }

    public Resolution resolve(String registrationToken) {
        AtomicReference<String> licenseArn = new AtomicReference<>();
        ResolveCustomerResponse response;
        try {
            response = metering.resolveCustomer(r -> r.registrationToken(registrationToken)
                    .overrideConfiguration(o -> o.putExecutionAttribute(LicenseArnFromWire.LICENSE_ARN, licenseArn)));
        } catch (InvalidTokenException e) {
            return refused(Resolution.Reason.INVALID_TOKEN, e);
        } catch (ExpiredTokenException e) {
            return refused(Resolution.Reason.EXPIRED_TOKEN, e);
        } catch (AwsServiceException e) {
            boolean transientFailure = e.isThrottlingException() || e.statusCode() >= 500;
            return refused(transientFailure ? Resolution.Reason.UNAVAILABLE : Resolution.Reason.SELLER_MISCONFIGURED, e);
        } catch (SdkClientException e) {
            return new Resolution.Refused(Resolution.Reason.UNAVAILABLE, e.getMessage());
        }
        if (!productCode.equals(response.productCode())) {
            return new Resolution.Refused(Resolution.Reason.OTHER_PRODUCT,
                    "the token is for product " + response.productCode() + ", not " + productCode);
        }
        return new Resolution.Resolved(new Buyer(response.customerAWSAccountId(), licenseArn.get(),
                response.productCode(), response.customerIdentifier()));
    }

    private static Resolution refused(Resolution.Reason reason, AwsServiceException e) {
        return new Resolution.Refused(reason, e.awsErrorDetails().errorCode() + ": " + e.awsErrorDetails().errorMessage());
    }
}
