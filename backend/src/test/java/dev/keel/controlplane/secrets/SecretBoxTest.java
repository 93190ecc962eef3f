package dev.keel.controlplane.secrets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Base64;

import org.junit.jupiter.api.Test;

class SecretBoxTest {

    static final String KEY = Base64.getEncoder().encodeToString(new byte[32]);
    final SecretBox box = new SecretBox(KEY);

    @Test
    void opensWhatItSealedInTheSameContextOnly() {
        byte[] sealed = box.seal("s3cret", "password:alice");

        assertThat(new String(sealed, java.nio.charset.StandardCharsets.ISO_8859_1)).doesNotContain("s3cret");
        assertThat(box.openString(sealed, "password:alice")).isEqualTo("s3cret");
        assertThatThrownBy(() -> box.open(sealed, "password:bob")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("password:bob");
    }

    @Test
    void sealingTwiceGivesDifferentBytes() {
        assertThat(box.seal("s3cret", "c")).isNotEqualTo(box.seal("s3cret", "c"));
    }

    @Test
    void anotherKeyOrAnAlteredValueDoesNotOpen() {
        byte[] sealed = box.seal("s3cret", "c");
        SecretBox other = new SecretBox(Base64.getEncoder().encodeToString(new byte[]{1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
                11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32}));
        assertThatThrownBy(() -> other.open(sealed, "c")).isInstanceOf(IllegalStateException.class);
        sealed[sealed.length - 1] ^= 1;
        assertThatThrownBy(() -> box.open(sealed, "c")).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void refusesAKeyThatIsNot32Bytes() {
        assertThatThrownBy(() -> new SecretBox(Base64.getEncoder().encodeToString(new byte[16])))
                .hasMessageContaining("32 bytes");
        assertThatThrownBy(() -> new SecretBox("not base64!")).hasMessageContaining("base64");
    }
}
