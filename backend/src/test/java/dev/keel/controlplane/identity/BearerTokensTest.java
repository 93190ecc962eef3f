package dev.keel.controlplane.identity;

import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.server.resource.web.DefaultBearerTokenResolver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BearerTokensTest {

    private final BearerTokens tokens = new BearerTokens();
    private final DefaultBearerTokenResolver spring = new DefaultBearerTokenResolver();

    /** Whatever the header, the same token, or the same refusal, as Spring's own resolver. */
    @ParameterizedTest
    @ValueSource(strings = {
            "Bearer eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln-_~+/", "bearer abc", "BEARER abc==", "Bearer a=",
            "Bearer ", "Bearer", "Bearer  abc", "Bearer abc def", "Bearer abc=d", "Bearer =", "Bearer ab\u00e9",
            "Bearerabc", "Basic dXNlcjpwYXNz", "Token abc", "", "bear abc", "Bearer abc\n"})
    void readsAnAuthorizationHeaderAsSpringsResolverDoes(String header) {
        MockHttpServletRequest request = new MockHttpServletRequest("GET", "/api/v1/instances");
        request.addHeader("Authorization", header);

        String expected;
        try {
            expected = spring.resolve(request);
        } catch (OAuth2AuthenticationException refused) {
            assertThatThrownBy(() -> tokens.resolve(request)).isInstanceOf(OAuth2AuthenticationException.class)
                    .hasMessage(refused.getMessage());
            return;
        }
        assertThat(tokens.resolve(request)).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "-", "abc", "a.b.c", "a==", "==", "a=b", "a b", "ä", "a/+~_-.9Z="})
    void aTokenIsWellFormedExactlyWhenRfc6750sGrammarSaysSo(String token) {
        assertThat(BearerTokens.wellFormed(token, 0))
                .isEqualTo(Pattern.matches("[A-Za-z0-9\\-._~+/]+=*", token));
    }

    @Test
    void aRequestWithoutAnAuthorizationHeaderHasNoToken() {
        assertThat(tokens.resolve(new MockHttpServletRequest("GET", "/api/v1/instances"))).isNull();
    }
}
